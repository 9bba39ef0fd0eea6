#include "harness/cli/config_command.h"

#include <iostream>

#include "harness/driver/run_config_reference.h"
#include "harness/rdma/errors.h"

namespace dmbench::cli {

namespace {

constexpr const char* kUsage =
    "usage: dmbench config --describe\n"
    "Prints the reference of every run-config field (allowed values, default, meaning) as\n"
    "Markdown; configs/README.md is this output.\n";

}  // namespace

int RunConfigCommand(const std::vector<std::string>& arguments) {
  if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h") {
    std::cout << kUsage;
    return arguments.empty() ? 2 : 0;
  }
  if (arguments.size() != 1 || arguments[0] != "--describe") {
    throw ConfigError("expected --describe, got '" + arguments[0] +
                      (arguments.size() > 1 ? " ..." : "") + "'");
  }
  std::cout << driver::RunConfigReferenceMarkdown();
  return 0;
}

}  // namespace dmbench::cli
