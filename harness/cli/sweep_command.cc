#include "harness/cli/sweep_command.h"

#include <sys/wait.h>
#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include "harness/cli/cli_support.h"
#include "harness/driver/benchmark_runner.h"
#include "harness/driver/experiment.h"
#include "harness/driver/run_config.h"
#include "harness/rdma/errors.h"
#include "harness/util/child_spawn.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// The result file of a point, when it is finished: complete JSON of the
// current schema (files are renamed into place only when written in full).
// Anything else, including a file damaged since, is a point to run again.
std::optional<nlohmann::json> FinishedResult(const fs::path& file) {
  std::ifstream stream(file);
  if (!stream) return std::nullopt;
  nlohmann::json result;
  try {
    result = ParseJson(stream, file.string());
  } catch (const ConfigError&) {
    return std::nullopt;
  }
  if (!result.is_object() ||
      result.value("schema_version", nlohmann::json()) != driver::kResultSchemaVersion) {
    return std::nullopt;
  }
  return result;
}

bool Finished(const fs::path& file) { return FinishedResult(file).has_value(); }

// Whether --resume may keep a point's finished result: an index run's result
// must have been made from the config the point resolves to now, so that a
// directory holding another scale's or an older config's points (say, --quick
// results resumed by a full run) is run again instead of mixed in silently.
// `reason` says what differs.
bool ResumableResult(const fs::path& file, const driver::ExperimentPoint& point,
                     std::string& reason) {
  const std::optional<nlohmann::json> result = FinishedResult(file);
  if (!result) return false;
  if (!point.micro_arguments.empty()) return true;
  const nlohmann::json wanted = driver::RunConfig::FromJson(point.config).ToJson();
  const nlohmann::json made = result->value("config", nlohmann::json());
  if (made == wanted) return true;
  // The first JSON-patch operation turning one into the other, e.g.
  // "/run/measure_ms", names the field as a --set would: run.measure_ms.
  std::string field = nlohmann::json::diff(made, wanted).front().value("path", "/");
  field.erase(0, 1);
  std::replace(field.begin(), field.end(), '/', '.');
  reason = "its result was made from another config (first difference: " + field + ")";
  return false;
}

// The summary row of a finished index-run point; "unreadable" when the file
// lacks the figures (results are checked by their schema, not here).
std::string SummaryCells(const nlohmann::json& result) {
  const nlohmann::json latency = result.value("latency_us", nlohmann::json::object());
  const nlohmann::json cells = {
      result.value("throughput_mops", nlohmann::json()),
      latency.is_object() ? latency.value("p50", nlohmann::json()) : nlohmann::json(),
      latency.is_object() ? latency.value("p99", nlohmann::json()) : nlohmann::json()};
  if (!std::all_of(cells.begin(), cells.end(), [](const auto& c) { return c.is_number(); })) {
    return "unreadable";
  }
  char line[64];
  std::snprintf(line, sizeof(line), "%10.3f %10.2f %10.2f", cells[0].get<double>(),
                cells[1].get<double>(), cells[2].get<double>());
  return line;
}

struct Running {
  size_t point;
  std::chrono::steady_clock::time_point started;
};

}  // namespace

int RunSweepCommand(const std::vector<std::string>& arguments) {
  po::options_description options(
      "usage: dmbench sweep --experiment FILE [--out DIR] [--resume] [--jobs N] [--set "
      "path=value]... [--paper-scale] [--configs-only]\n"
      "Runs every point of an experiment (configs/experiments/*.json), one result JSON each.\n"
      "options");
  options.add_options()("help,h", "show this help")("experiment", po::value<std::string>(),
                                                    "experiment file (JSON)")(
      "out", po::value<std::string>(), "result directory (default: results/<experiment name>)")(
      "resume", "skip points whose result file is already complete")(
      "jobs,j", po::value<unsigned>()->default_value(1), "points run in parallel, in processes")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a field of every point: --set run.measure_ms=2")(
      "paper-scale",
      "run at the paper's setup: the experiment's paper_scale.set and paper_scale.sweep "
      "(e.g. 1 billion keys, 500 MB index cache) instead of its laptop scale")(
      "list", "print the points and exit")(
      "configs-only",
      "write each point's run config as DIR/POINT.config.json, print their paths and run "
      "nothing (a real-cluster driver, ae/cluster/run.sh, runs them one by one); with "
      "--resume, only the points not yet done");
  po::variables_map values;
  if (!ParseOptions(arguments, options, values)) return 0;
  if (!values.count("experiment")) {
    std::cerr << "dmbench sweep: --experiment FILE is required (see --help)\n";
    return 2;
  }
  const unsigned jobs = values["jobs"].as<unsigned>();
  if (jobs < 1 || jobs > 256) throw ConfigError("--jobs must be in [1, 256]");
  std::vector<std::string> sets;
  if (values.count("set")) sets = values["set"].as<std::vector<std::string>>();
  const driver::ExperimentScale scale = values.count("paper-scale")
                                            ? driver::ExperimentScale::kPaper
                                            : driver::ExperimentScale::kAsDefined;
  const driver::Experiment experiment =
      driver::LoadExperiment(values["experiment"].as<std::string>(), sets, scale);
  if (values.count("list")) {
    for (const auto& point : experiment.points) std::cout << point.name << "\n";
    return 0;
  }
  // A microbenchmark point is a 'dmbench micro' command line, not a run
  // config: there is nothing a cluster driver could run.
  if (values.count("configs-only") && !experiment.points.front().micro_arguments.empty()) {
    throw ConfigError("--configs-only: " + experiment.name +
                      " is a microbenchmark experiment (\"micro\"), which has no run configs; "
                      "only index-run experiments (\"base\", \"variants\", \"sweep\") have");
  }
  const fs::path directory = values.count("out") ? fs::path(values["out"].as<std::string>())
                                                 : fs::path("results") / experiment.name;
  // The directory is made, and a file made in it, before any point runs.
  CheckOutputFile("--out", (directory / "experiment.json").string());
  nlohmann::json index = {
      {"experiment", experiment.definition},
      {"scale", scale == driver::ExperimentScale::kPaper ? "paper" : "as-defined"},
      {"points", nlohmann::json::array()}};
  for (const auto& point : experiment.points) {
    index["points"].push_back({{"name", point.name},
                               {"variant", point.variant},
                               {"settings", point.settings},
                               {"result", point.name + ".json"}});
  }
  WriteJsonFile((directory / "experiment.json").string(), index);

  if (values.count("configs-only")) {
    // The same files a sweep writes before running each point, so that a
    // point run elsewhere ran exactly what the sweep would have. With
    // --resume, only the points a sweep would run: another engine (GNU
    // parallel, a Slurm array) then skips what is done as a sweep does.
    size_t listed = 0;
    for (const auto& point : experiment.points) {
      std::string reason;
      if (values.count("resume") &&
          ResumableResult(directory / (point.name + ".json"), point, reason)) {
        continue;
      }
      const fs::path config_file = directory / (point.name + ".config.json");
      WriteJsonFile(config_file.string(), point.config);
      std::cout << config_file.string() << "\n";
      ++listed;
    }
    std::cerr << "[" << experiment.name << "] " << listed << " of " << experiment.points.size()
              << " point configs written to " << directory.string() << " (nothing run)\n";
    return 0;
  }

  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<size_t> pending;
  size_t skipped = 0;
  for (size_t i = 0; i < experiment.points.size(); ++i) {
    const auto& point = experiment.points[i];
    std::string reason;
    if (values.count("resume") &&
        ResumableResult(directory / (point.name + ".json"), point, reason)) {
      ++skipped;
      continue;
    }
    if (!reason.empty()) {
      std::cerr << "[" << experiment.name << "] " << point.name << ": " << reason
                << "; running it again\n";
    }
    pending.push_back(i);
  }
  std::cerr << "[" << experiment.name << "] " << experiment.points.size() << " points, " << skipped
            << " already done, " << pending.size() << " to run, " << jobs
            << " at a time, results in " << directory.string() << "\n";

  std::map<pid_t, Running> running;
  std::vector<std::string> failed;
  size_t next = 0, done = 0;
  while (next < pending.size() || !running.empty()) {
    while (next < pending.size() && running.size() < jobs) {
      const auto& point = experiment.points[pending[next]];
      const std::string out = (directory / (point.name + ".json")).string();
      std::vector<std::string> command = {self};
      if (point.micro_arguments.empty()) {
        const fs::path config_file = directory / (point.name + ".config.json");
        WriteJsonFile(config_file.string(), point.config);
        command.insert(command.end(), {"run", "--config", config_file.string(), "--out", out});
      } else {
        command.push_back("micro");
        command.insert(command.end(), point.micro_arguments.begin(), point.micro_arguments.end());
        command.insert(command.end(), {"--out", out});
      }
      const pid_t pid = SpawnLogged(command, directory / (point.name + ".log"));
      running[pid] = {pending[next], std::chrono::steady_clock::now()};
      ++next;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) throw std::runtime_error("waitpid failed: " + std::string(std::strerror(errno)));
    const auto found = running.find(pid);
    if (found == running.end()) continue;
    const auto& point = experiment.points[found->second.point];
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - found->second.started)
            .count();
    ++done;
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::cerr << "[" << experiment.name << "] " << done << "/" << pending.size() << " "
              << (ok ? "done " : "FAILED ") << point.name << " (" << seconds << " s)";
    if (!ok) {
      failed.push_back(point.name);
      std::cerr << ": see " << (directory / (point.name + ".log")).string();
    }
    std::cerr << "\n";
    running.erase(found);
  }

  std::cout << experiment.name << (experiment.figure.empty() ? "" : " (" + experiment.figure + ")")
            << "\n";
  char line[256];
  std::snprintf(line, sizeof(line), "%-48s %10s %10s %10s\n", "point", "Mops", "p50 us", "p99 us");
  std::cout << line;
  for (const auto& point : experiment.points) {
    const fs::path file = directory / (point.name + ".json");
    if (!Finished(file)) {
      std::snprintf(line, sizeof(line), "%-48s %10s\n", point.name.c_str(), "missing");
    } else if (!point.micro_arguments.empty()) {
      std::snprintf(line, sizeof(line), "%-48s %10s\n", point.name.c_str(),
                    "see its table in the .log");
    } else {
      std::snprintf(line, sizeof(line), "%-48s %s\n", point.name.c_str(),
                    SummaryCells(ReadJsonFile(file.string())).c_str());
    }
    std::cout << line;
  }
  if (!failed.empty()) {
    std::cerr << "dmbench sweep: " << failed.size() << " of " << pending.size()
              << " points failed; rerun with --resume to retry only those\n";
    return 1;
  }
  return 0;
}

}  // namespace dmbench::cli
