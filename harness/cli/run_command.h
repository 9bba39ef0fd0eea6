// `dmbench run`: one benchmark from a config file.
#pragma once

#include <string>
#include <vector>

namespace dmbench::cli {

int RunRunCommand(const std::vector<std::string>& arguments);

}  // namespace dmbench::cli
