// `dmbench merge`: one result from the results of a real cluster's
// compute-server processes.
#pragma once

#include <string>
#include <vector>

namespace dmbench::cli {

int RunMergeCommand(const std::vector<std::string>& arguments);

}  // namespace dmbench::cli
