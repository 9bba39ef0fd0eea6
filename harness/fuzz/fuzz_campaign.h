// A seeded fuzz campaign over every input dmbench reads: so many cases per
// input kind, each drawn from a generator seeded by (campaign seed, kind,
// case number), so any case is replayed alone. `dmbench fuzz` runs it; a
// bounded campaign is part of every CTest run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace dmbench::fuzz {

// The input kinds, in campaign order: run-config, set-override, experiment,
// nic-profile, merge, private-data (in-process) and cli (the command line).
const std::vector<std::string>& InputKinds();

struct CampaignOptions {
  uint64_t seed = 1;
  uint64_t cases = 200;               // per in-process kind
  uint64_t cli_cases = 10;            // command-line cases
  std::vector<std::string> kinds;     // empty: every kind
  std::optional<uint64_t> only_case;  // replay this case of each kind
  std::string binary;                 // the dmbench the command-line cases run
  std::filesystem::path findings;     // where each finding's input is saved
  double cli_timeout_seconds = 60;
};

struct KindTally {
  std::string kind;
  uint64_t cases = 0;
  uint64_t accepted = 0;
  uint64_t refused = 0;
  uint64_t findings = 0;
  double seconds = 0;
};

struct CampaignReport {
  std::vector<KindTally> kinds;
  std::vector<std::string> findings;  // one line each
};

// Runs the campaign, printing each finding to `log` as it is found.
CampaignReport RunCampaign(const CampaignOptions& options, std::ostream& log);

}  // namespace dmbench::fuzz
