// `dmbench nic`: what a simulated-fabric NIC profile says, as a document.
#pragma once

#include <string>
#include <vector>

namespace dmbench::cli {

int RunNicCommand(const std::vector<std::string>& arguments);

}  // namespace dmbench::cli
