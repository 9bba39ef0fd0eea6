// `dmbench config`: the run-config reference (configs/README.md).
#pragma once

#include <string>
#include <vector>

namespace dmbench::cli {

int RunConfigCommand(const std::vector<std::string>& arguments);

}  // namespace dmbench::cli
