#include "harness/fuzz/cli_target.h"

#include <array>
#include <cstring>

#include "harness/fuzz/child_process.h"
#include "harness/util/file_output.h"

namespace dmbench::fuzz {

namespace {

using Arguments = std::vector<std::string>;

// Keeps a fuzzed run small: the fuzzer is after how input is handled, not
// after long simulations.
const Arguments kSmallRun = {"--set", "run.measure_ms=0.02", "--set", "run.warmup_ms=0.01",
                             "--set", "workload.keys=3000"};

// Sanitizer and interpreter reports that must never appear, whatever the
// exit status.
constexpr std::array<const char*, 5> kReports = {"AddressSanitizer", "LeakSanitizer",
                                                 "UndefinedBehaviorSanitizer",
                                                 "runtime error:", "Traceback"};

std::string LastLine(const std::string& output) {
  size_t end = output.find_last_not_of("\n ");
  if (end == std::string::npos) return "";
  const size_t start = output.rfind('\n', end);
  return output.substr(start == std::string::npos ? 0 : start + 1,
                       end + 1 - (start == std::string::npos ? 0 : start + 1));
}

CaseResult Judge(const ChildOutcome& outcome, double timeout_seconds) {
  const std::string tail = LastLine(outcome.output);
  if (outcome.timed_out) {
    return {Verdict::kFinding, "did not finish in " + std::to_string(timeout_seconds) +
                                   " s (a hang); last output: " + tail};
  }
  if (outcome.signaled) {
    return {Verdict::kFinding, std::string("killed by signal ") + strsignal(outcome.status) +
                                   "; last output: " + tail};
  }
  for (const char* report : kReports) {
    if (outcome.output.find(report) != std::string::npos) {
      return {Verdict::kFinding, std::string("the output holds a report (") + report +
                                     "): " + outcome.output.substr(0, 2000)};
    }
  }
  switch (outcome.status) {
    case 0:
      return {Verdict::kAccepted, ""};
    case 1:
    case 2:
    case 3: {
      const std::string unclear = UnclearMessage(tail);
      if (!unclear.empty()) {
        return {Verdict::kFinding, "exit status " + std::to_string(outcome.status) +
                                       " with an unclear message, " + unclear + ": " + tail};
      }
      return {Verdict::kRefused, "exit " + std::to_string(outcome.status) + ": " + tail};
    }
    default:
      return {Verdict::kFinding, "undocumented exit status " + std::to_string(outcome.status) +
                                     "; last output: " + tail};
  }
}

template <size_t N>
const char* Pick(Random& random, const std::array<const char*, N>& choices) {
  return choices[random.Uniform(N)];
}

// Options of every command with values mostly wrong: malformed, out of
// range, of the wrong kind; valid ones are small, so that what runs is short.
Arguments OptionSoup(Random& random, const std::string& config, const std::string& experiment,
                     const std::string& scratch) {
  static constexpr std::array<const char*, 7> kCommands = {"run",   "sweep", "micro", "nic",
                                                           "merge", "serve", "bogus"};
  static constexpr std::array<const char*, 8> kBenchmarks = {
      "verbs", "atomics", "spinlock", "hocl", "interference", "calibration", "all", "x"};
  static constexpr std::array<const char*, 14> kNumbers = {
      "1", "0", "-1", "2", "4", "x", "", "1e3", "99999999999", "0.5", "nan", "3000", ",", "1,2"};
  static constexpr std::array<const char*, 22> kOptions = {
      "--set",      "--out",     "--verify", "--memory-servers", "--compute-server",
      "--jobs",     "--list",    "--resume", "--configs-only",   "--sizes",
      "--thetas",   "--threads", "--depth",  "--coroutines",     "--compute-servers",
      "--nic",      "--nic-set", "--locks",  "--addresses",      "--spinners",
      "--describe", "--unknown"};
  const std::string command = Pick(random, kCommands);
  Arguments arguments = {command};
  if (command == "micro") arguments.push_back(Pick(random, kBenchmarks));
  if (command == "run" && random.Uniform(4) != 0)
    arguments.insert(arguments.end(), {"--config", config});
  if (command == "sweep" && random.Uniform(4) != 0) {
    arguments.insert(arguments.end(), {"--experiment", experiment, "--list"});
  }
  for (uint64_t i = random.Uniform(5); i > 0; --i) {
    const std::string option = Pick(random, kOptions);
    arguments.push_back(option);
    if (option == "--out") {
      arguments.push_back(random.Uniform(3) == 0 ? "/" : scratch + "/soup-out");
    } else if (option == "--set") {
      arguments.push_back(random.Uniform(2) ? "index.combine=false" : "oops");
    } else if (option == "--nic-set") {
      arguments.push_back(random.Uniform(2) ? "processing_units=0" : "link_mtu_bytes=x");
    } else if (option == "--nic" || option == "--describe") {
      arguments.push_back(random.Uniform(2) ? "cx5-100g" : "no-such-profile");
    } else if (option == "--memory-servers") {
      arguments.push_back(random.Uniform(2) ? "h" : ",");
    } else if (option != "--verify" && option != "--list" && option != "--resume" &&
               option != "--configs-only") {
      arguments.push_back(Pick(random, kNumbers));
    }
  }
  if (command == "serve") arguments.push_back("--no-such-option");  // never serves
  if (command == "micro") {
    arguments.insert(arguments.end(), {"--warmup-us", "1", "--measure-us", "5"});
  }
  return arguments;
}

class CliTarget final : public FuzzTarget {
 public:
  CliTarget(const ConfigInputs& inputs, const MergeInputs& merge_inputs,
            const CliTargetOptions& options)
      : inputs_(inputs),
        merge_inputs_(merge_inputs),
        options_(options),
        directory_(options.scratch / "cli") {
    std::filesystem::create_directories(directory_ / "merge");
  }
  std::string_view kind() const override { return "cli"; }

  CaseResult RunCase(Random& random, std::string& input) override {
    const std::string config = (directory_ / "config.json").string();
    const std::string experiment = (directory_ / "experiment.json").string();
    const std::string out = (directory_ / "out.json").string();
    Arguments arguments = {options_.binary};
    input.clear();
    switch (random.Uniform(5)) {
      case 0: {
        input = inputs_.RunConfigText(random);
        WriteFileWhole(config, input);
        arguments.insert(arguments.end(), {"run", "--quiet", "--config", config});
        arguments.insert(arguments.end(), kSmallRun.begin(), kSmallRun.end());
        if (random.Uniform(3) == 0) arguments.push_back("--verify");
        if (random.Uniform(2) == 0) arguments.insert(arguments.end(), {"--out", out});
        break;
      }
      case 1:
        input = inputs_.ExperimentText(random);
        WriteFileWhole(experiment, input);
        arguments.insert(arguments.end(), {"sweep", "--list", "--experiment", experiment});
        break;
      case 2: {
        const std::string profile = (directory_ / "nic.json").string();
        input = inputs_.NicProfileText(random);
        WriteFileWhole(profile, input);
        arguments.insert(arguments.end(), {"nic", "--describe", profile});
        break;
      }
      case 3: {
        const std::vector<std::string> files =
            merge_inputs_.Write(random, directory_ / "merge", input);
        arguments.insert(arguments.end(), {"merge", "--out", out});
        arguments.insert(arguments.end(), files.begin(), files.end());
        break;
      }
      default: {
        WriteFileWhole(config, Text(inputs_.AnyRunConfig(random)));
        WriteFileWhole(experiment, inputs_.ExperimentText(random));
        const Arguments soup = OptionSoup(random, config, experiment, directory_.string());
        arguments.insert(arguments.end(), soup.begin(), soup.end());
        if (soup.front() == "run") {
          arguments.insert(arguments.end(), kSmallRun.begin(), kSmallRun.end());
        }
      }
    }
    input += "\ncommand:";
    for (size_t i = 1; i < arguments.size(); ++i) input += " '" + arguments[i] + "'";
    const ChildOutcome outcome =
        RunChild(arguments, directory_ / "output.txt", options_.timeout_seconds);
    return Judge(outcome, options_.timeout_seconds);
  }

 private:
  const ConfigInputs& inputs_;
  const MergeInputs& merge_inputs_;
  CliTargetOptions options_;
  std::filesystem::path directory_;
};

}  // namespace

std::unique_ptr<FuzzTarget> MakeCliTarget(const ConfigInputs& inputs,
                                          const MergeInputs& merge_inputs,
                                          const CliTargetOptions& options) {
  return std::make_unique<CliTarget>(inputs, merge_inputs, options);
}

}  // namespace dmbench::fuzz
