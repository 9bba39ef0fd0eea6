// `dmbench sweep`: every point of an experiment, one result file each.
#pragma once

#include <string>
#include <vector>

namespace dmbench::cli {

int RunSweepCommand(const std::vector<std::string>& arguments);

}  // namespace dmbench::cli
