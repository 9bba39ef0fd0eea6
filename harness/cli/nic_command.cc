#include "harness/cli/nic_command.h"

#include <iostream>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/nic_profile.h"

namespace dmbench::cli {

namespace {

constexpr const char* kUsage =
    "usage: dmbench nic --describe NAME|FILE\n"
    "Prints the calibration document of a NIC profile (every parameter with its meaning,\n"
    "value and source) as Markdown; configs/nic/NAME.md is this output.\n";

}  // namespace

int RunNicCommand(const std::vector<std::string>& arguments) {
  if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h") {
    std::cout << kUsage;
    return arguments.empty() ? 2 : 0;
  }
  if (arguments.size() != 2 || arguments[0] != "--describe") {
    throw ConfigError("expected --describe NAME|FILE, got '" + arguments[0] +
                      (arguments.size() > 1 ? " ..." : "") + "'");
  }
  std::cout << rdma::sim::NicProfile::Find(arguments[1]).CalibrationMarkdown();
  return 0;
}

}  // namespace dmbench::cli
