#include "harness/cli/fuzz_command.h"

#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "harness/cli/cli_support.h"
#include "harness/fuzz/fuzz_campaign.h"

namespace dmbench::cli {

namespace po = boost::program_options;

int RunFuzzCommand(const std::vector<std::string>& arguments) {
  fuzz::CampaignOptions campaign;
  po::options_description options(
      "usage: dmbench fuzz [--cases N] [--cli-cases N] [--seed S] [--kinds K,...] [--case N]\n"
      "Fuzzes every input dmbench reads: run configs, --set overrides, experiment files,\n"
      "NIC profiles, result files and histories for merge, the memory server's connection\n"
      "data (in-process), and the command line end to end (each case a dmbench process).\n"
      "Each case must be accepted or refused with a clear error; anything else (another\n"
      "exception, a signal, an undocumented exit status, a hang, a sanitizer report) is a\n"
      "finding. Prints the cases per input kind; exits 1 if there were findings.\n"
      "options");
  std::string kinds;
  uint64_t only_case = 0;
  std::string findings;
  options.add_options()("help,h", "show this help")(
      "cases", po::value<uint64_t>(&campaign.cases)->default_value(campaign.cases),
      "cases per in-process input kind")(
      "cli-cases", po::value<uint64_t>(&campaign.cli_cases)->default_value(campaign.cli_cases),
      "command-line cases (each runs dmbench)")(
      "seed", po::value<uint64_t>(&campaign.seed)->default_value(campaign.seed),
      "campaign seed: the same seed gives the same cases")(
      "kinds", po::value<std::string>(&kinds),
      "only these input kinds (run-config, set-override, experiment, nic-profile, merge, "
      "private-data, cli)")("case", po::value<uint64_t>(&only_case),
                            "replay this case number of each kind, printing its input")(
      "findings", po::value<std::string>(&findings),
      "save each finding's input into this directory")(
      "timeout", po::value<double>(&campaign.cli_timeout_seconds)->default_value(60),
      "seconds a command-line case may take before it counts as a hang");
  po::variables_map values;
  if (!ParseOptions(arguments, options, values)) return 0;
  if (!kinds.empty()) campaign.kinds = ParseStringList("kinds", kinds);
  if (values.count("case")) campaign.only_case = only_case;
  campaign.findings = findings;
  campaign.binary = std::filesystem::read_symlink("/proc/self/exe").string();

  const fuzz::CampaignReport report = fuzz::RunCampaign(campaign, std::cerr);
  std::printf("%-14s %8s %9s %8s %9s %9s\n", "input kind", "cases", "accepted", "refused",
              "findings", "seconds");
  uint64_t cases = 0;
  for (const fuzz::KindTally& tally : report.kinds) {
    std::printf("%-14s %8llu %9llu %8llu %9llu %9.1f\n", tally.kind.c_str(),
                static_cast<unsigned long long>(tally.cases),
                static_cast<unsigned long long>(tally.accepted),
                static_cast<unsigned long long>(tally.refused),
                static_cast<unsigned long long>(tally.findings), tally.seconds);
    cases += tally.cases;
  }
  std::printf("fuzz: %llu cases, seed %llu, %zu findings\n", static_cast<unsigned long long>(cases),
              static_cast<unsigned long long>(campaign.seed), report.findings.size());
  return report.findings.empty() ? 0 : 1;
}

}  // namespace dmbench::cli
