#include "harness/cli/nic_command.h"

#include <iostream>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::cli {

namespace {

constexpr const char* kUsage =
    "usage: dmbench nic --describe NAME|FILE\n"
    "Prints the calibration document of a NIC profile (every parameter with its meaning,\n"
    "value and source) as Markdown; configs/nic/NAME.md is this output.\n";

// Finds the file behind a name the same way NicProfile::Find does, for the
// profile's description.
std::string ProfileFile(const std::string& name_or_path) {
  if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json")) {
    return name_or_path;
  }
  return rdma::sim::ConfigDirectory() + "/nic/" + name_or_path + ".json";
}

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
  const rdma::sim::NicProfile profile = rdma::sim::NicProfile::Find(arguments[1]);
  const nlohmann::json document = ReadJsonFile(ProfileFile(arguments[1]));
  std::cout << profile.CalibrationMarkdown(document.value("description", ""));
  return 0;
}

}  // namespace dmbench::cli
