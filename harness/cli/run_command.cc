#include "harness/cli/run_command.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>
#include <optional>

#include "harness/cli/cli_support.h"
#include "harness/driver/benchmark_runner.h"
#include "harness/driver/fabric.h"
#include "harness/driver/run_config.h"
#include "harness/rdma/errors.h"
#include "harness/util/file_output.h"
#include "harness/util/json_object_reader.h"
#include "harness/util/perf_record_control.h"

namespace dmbench::cli {

namespace po = boost::program_options;

namespace {

// perf record samples the measured run and nothing else.
class PerfSampledRun final : public driver::MeasuredRunObserver {
 public:
  explicit PerfSampledRun(const std::string& fifos) : control_(fifos) {}
  void MeasuredRunStarts() override { control_.Enable(); }
  void MeasuredRunEnded() override { control_.Disable(); }

 private:
  PerfRecordControl control_;
};

}  // namespace

int RunRunCommand(const std::vector<std::string>& arguments) {
  po::options_description options(
      "usage: dmbench run --config FILE [--set path=value]... [--out FILE]\n"
      "Runs one benchmark: bulkload, warm-up, measured window; prints a summary table.\n"
      "options");
  options.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                    "run config (JSON), e.g. configs/runs/*.json")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a field: --set index.combine=false --set workload.theta=0.9")(
      "out", po::value<std::string>(), "write the result JSON here (results/SCHEMA.md)")(
      "verify", "validate every operation with the consistency checker (same as run.verify)")(
      "memory-servers", po::value<std::string>(),
      "real cluster: host:port,... of each 'dmbench serve' (sets backend.type=verbs)")(
      "compute-server", po::value<uint32_t>(),
      "real cluster: which compute server this process is (backend.compute_server)")(
      "perf-control", po::value<std::string>(),
      "CTL,ACK: the FIFOs of 'perf record -D -1 --control fifo:CTL,ACK', which then samples "
      "only the warm-up and the measured window (ae/bench-sim.sh --profile)")(
      "quiet,q", "no progress lines on stderr");
  po::variables_map values;
  if (!ParseOptions(arguments, options, values)) return 0;
  if (!values.count("config")) {
    std::cerr << "dmbench run: --config FILE is required (see --help)\n";
    return 2;
  }
  const std::string config_file = values["config"].as<std::string>();
  const nlohmann::json document = ReadJsonFile(config_file);
  std::vector<std::string> sets;
  if (values.count("set")) sets = values["set"].as<std::vector<std::string>>();
  if (values.count("verify")) sets.push_back("run.verify=true");
  if (values.count("memory-servers")) {
    const nlohmann::json list =
        ParseStringList("memory-servers", values["memory-servers"].as<std::string>());
    // A config written for the simulated fabric runs as is: its backend
    // section (a NIC profile) means nothing on a real cluster.
    if (document.value("backend", nlohmann::json::object()).value("type", "sim") != "verbs") {
      sets.insert(sets.begin(), R"(backend={"type": "verbs"})");
    }
    sets.push_back("backend.memory_servers=" + list.dump());
  }
  if (values.count("compute-server")) {
    sets.push_back("backend.compute_server=" +
                   std::to_string(values["compute-server"].as<uint32_t>()));
  }
  const driver::RunConfig config = driver::LoadRunConfig(document, config_file, sets);
  // What the run will write is checked before it runs, not after: a
  // mistyped path would otherwise lose the run.
  const bool writes_history = config.verify && driver::SharedWithOtherProcesses(config);
  if (writes_history && !values.count("out")) {
    throw ConfigError(
        "--verify with several compute servers needs --out: the history goes beside the result "
        "for 'dmbench merge' to check");
  }
  std::optional<std::string> out;
  if (values.count("out")) {
    out = values["out"].as<std::string>();
    CheckOutputFile("--out", *out);
    if (writes_history) {
      // The history goes beside the result, as FILE.history. A device or
      // a pipe has no such place: the history would land in /dev, say.
      if (WrittenInPlace(*out)) {
        throw ConfigError(
            "--verify with several compute servers writes its history beside --out, "
            "so --out must name a regular file, not '" +
            *out + "'");
      }
      CheckOutputFile("--out", *out + ".history");
    }
  }
  std::ostream& printed = PrintedOutputBeside(out);

  std::optional<PerfSampledRun> perf_sampled;
  if (values.count("perf-control")) perf_sampled.emplace(values["perf-control"].as<std::string>());
  const driver::BenchmarkOutcome outcome =
      driver::RunBenchmark(config, values.count("quiet") ? nullptr : &std::cerr,
                           driver::MakeConfiguredIndex, perf_sampled ? &*perf_sampled : nullptr);
  if (out) {
    nlohmann::json result = outcome.result;
    if (outcome.history) {
      // Beside the result, named in it, for `dmbench merge`.
      const std::string history = *out + ".history";
      WriteHistoryFile(history, *outcome.history);
      result["verify"]["history_file"] = std::filesystem::path(history).filename().string();
    }
    WriteJsonFile(*out, result);
    if (!values.count("quiet")) std::cerr << "wrote " << *out << "\n";
  }
  printed << config.name << " (" << config.index_preset << ": " << config.index.Describe() << ")\n"
          << driver::SummaryTable(outcome.result);
  const auto& wall = outcome.result["wall_clock"];
  if (wall.contains("index_operations_per_wall_second")) {
    printed << "simulator: " << wall["index_operations_per_wall_second"].get<double>() / 1e6
            << " M index operations per wall-clock second on one core ("
            << wall["events_per_wall_second"].get<double>() / 1e6 << " M events/s)\n";
  }
  if (outcome.history) {
    printed << "verify: " << outcome.history->recorded()
            << " operations recorded; 'dmbench merge' checks them with the other compute "
               "servers'\n";
  } else if (config.verify) {
    return ReportVerification(outcome.result["verify"], "run", printed);
  }
  return 0;
}

}  // namespace dmbench::cli
