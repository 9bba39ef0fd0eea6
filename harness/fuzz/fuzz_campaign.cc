#include "harness/fuzz/fuzz_campaign.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "harness/fuzz/cli_target.h"
#include "harness/fuzz/config_targets.h"
#include "harness/fuzz/merge_target.h"
#include "harness/fuzz/private_data_target.h"
#include "harness/fuzz/ycsb_trace_target.h"
#include "harness/rdma/errors.h"
#include "harness/util/file_output.h"
#include "harness/util/json_object_reader.h"
#include "harness/util/random.h"

namespace dmbench::fuzz {

namespace {

// A directory of its own for the campaign's files, removed at the end.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "dmbench-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot create a scratch directory from " + pattern);
    }
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string ReplayCommand(const CampaignOptions& options, const std::string& kind,
                          uint64_t number) {
  return "dmbench fuzz --seed " + std::to_string(options.seed) + " --kinds " + kind + " --case " +
         std::to_string(number);
}

}  // namespace

const std::vector<std::string>& InputKinds() {
  static const std::vector<std::string> kinds = {
      "run-config", "set-override", "experiment", "nic-profile", "merge", "private-data", "cli",
      // New kinds go last: a kind's position seeds its cases.
      "ycsb-trace"};
  return kinds;
}

CampaignReport RunCampaign(const CampaignOptions& options, std::ostream& log) {
  for (const std::string& kind : options.kinds) {
    if (std::find(InputKinds().begin(), InputKinds().end(), kind) == InputKinds().end()) {
      throw ConfigError("--kinds: unknown input kind '" + kind +
                        "' (allowed: " + CommaJoined(InputKinds()) + ")");
    }
  }
  const ScratchDirectory scratch;
  const ConfigInputs config_inputs;
  const MergeInputs merge_inputs;
  CampaignReport report;
  for (size_t k = 0; k < InputKinds().size(); ++k) {
    const std::string& kind = InputKinds()[k];
    if (!options.kinds.empty() &&
        std::find(options.kinds.begin(), options.kinds.end(), kind) == options.kinds.end()) {
      continue;
    }
    std::unique_ptr<FuzzTarget> target;
    if (kind == "run-config") target = MakeRunConfigTarget(config_inputs, scratch.path());
    if (kind == "set-override") target = MakeSetOverrideTarget(config_inputs);
    if (kind == "experiment") target = MakeExperimentTarget(config_inputs, scratch.path());
    if (kind == "nic-profile") target = MakeNicProfileTarget(config_inputs, scratch.path());
    if (kind == "merge") target = MakeMergeTarget(merge_inputs, scratch.path());
    if (kind == "private-data") target = MakePrivateDataTarget();
    if (kind == "ycsb-trace") target = MakeYcsbTraceTarget(scratch.path());
    if (kind == "cli") {
      target = MakeCliTarget(config_inputs, merge_inputs,
                             {options.binary, scratch.path(), options.cli_timeout_seconds});
    }
    KindTally tally{kind};
    const auto started = std::chrono::steady_clock::now();
    const uint64_t cases = kind == "cli" ? options.cli_cases : options.cases;
    const uint64_t first = options.only_case.value_or(0);
    const uint64_t end = options.only_case ? first + 1 : cases;
    for (uint64_t number = first; number < end; ++number) {
      Random random(DeriveSeed(DeriveSeed(options.seed, k), number));
      std::string input;
      const CaseResult result = target->RunCase(random, input);
      ++tally.cases;
      if (result.verdict == Verdict::kAccepted) ++tally.accepted;
      if (result.verdict == Verdict::kRefused) ++tally.refused;
      if (options.only_case) {
        log << kind << " case " << number << ": "
            << (result.verdict == Verdict::kAccepted  ? "accepted"
                : result.verdict == Verdict::kRefused ? "refused: " + result.detail
                                                      : "FINDING: " + result.detail)
            << "\ninput:\n"
            << input << "\n";
      }
      if (result.verdict != Verdict::kFinding) continue;
      ++tally.findings;
      // The input goes to the findings directory; the line stays readable.
      const std::string detail =
          result.detail.size() > 600 ? result.detail.substr(0, 600) + "..." : result.detail;
      std::string line = kind + " case " + std::to_string(number) + ": " + detail +
                         " (replay: " + ReplayCommand(options, kind, number) + ")";
      if (!options.findings.empty()) {
        // (WriteFileWhole makes the directory if it is missing.)
        const std::filesystem::path file =
            options.findings / (kind + "-" + std::to_string(number) + ".txt");
        WriteFileWhole(file, result.detail + "\n\ninput:\n" + input + "\n");
        line += "; input in " + file.string();
      }
      log << "FINDING " << line << std::endl;
      report.findings.push_back(line);
    }
    tally.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    report.kinds.push_back(tally);
  }
  return report;
}

}  // namespace dmbench::fuzz
