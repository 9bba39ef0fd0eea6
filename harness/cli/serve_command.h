// `dmbench serve`: a memory server of a real cluster.
#pragma once

#include <string>
#include <vector>

namespace dmbench::cli {

int RunServeCommand(const std::vector<std::string>& arguments);

}  // namespace dmbench::cli
