#include "harness/cli/nic_command.h"

#include "harness/cli/cli_support.h"
#include "harness/rdma/sim/nic_profile.h"

namespace dmbench::cli {

namespace {

constexpr const char* kNicUsage =
    "usage: dmbench nic --describe NAME|FILE\n"
    "Prints the calibration document of a NIC profile (every parameter with its meaning,\n"
    "value and source) as Markdown; configs/nic/NAME.md is this output.\n";

}  // namespace

int RunNicCommand(const std::vector<std::string>& arguments) {
  return RunDescribeCommand(arguments, kNicUsage, "NAME|FILE", [](const std::string& profile) {
    return rdma::sim::NicProfile::Find(profile).CalibrationMarkdown();
  });
}

}  // namespace dmbench::cli
