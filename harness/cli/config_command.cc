#include "harness/cli/config_command.h"

#include "harness/cli/cli_support.h"
#include "harness/driver/run_config_reference.h"

namespace dmbench::cli {

namespace {

constexpr const char* kConfigUsage =
    "usage: dmbench config --describe\n"
    "Prints the reference of every run-config field (allowed values, default, meaning) as\n"
    "Markdown; configs/README.md is this output.\n";

}  // namespace

int RunConfigCommand(const std::vector<std::string>& arguments) {
  return RunDescribeCommand(arguments, kConfigUsage, "", [](const std::string&) {
    return driver::RunConfigReferenceMarkdown();
  });
}

}  // namespace dmbench::cli
