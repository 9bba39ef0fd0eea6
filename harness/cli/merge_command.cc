#include "harness/cli/merge_command.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "harness/cli/cli_support.h"
#include "harness/driver/benchmark_runner.h"
#include "harness/driver/run_config.h"
#include "harness/driver/run_statistics.h"
#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"
#include "workloads/key_space.h"

namespace dmbench::cli {

namespace po = boost::program_options;

namespace {

// The config without what differs between compute servers by design.
nlohmann::json SharedConfig(nlohmann::json config) {
  config["backend"].erase("compute_server");
  return config;
}

// Checks the compute servers' histories together. Each process's clock
// started at the cluster-wide start only up to its uncertainty, so
// intervals are widened by the largest one: two processes' clocks then
// differ by no more than the widening on both sides.
nlohmann::json VerifyTogether(const std::vector<nlohmann::json>& results,
                              const std::vector<std::filesystem::path>& files) {
  const driver::RunConfig config = driver::RunConfig::FromJson(results[0]["config"]);
  uint64_t widen_ns = 0;
  for (const nlohmann::json& result : results) {
    widen_ns = std::max(widen_ns, result["verify"]["clock_uncertainty_ns"].get<uint64_t>());
  }
  indexes::ConsistencyChecker checker;
  workloads::KeySpace key_space(config.workload, config.seed);
  for (const auto& [key, value] : key_space.BulkloadEntries(config.seed)) {
    checker.SetInitial(key, value);
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i]["verify"].contains("history_file")) {
      throw ConfigError(files[i].string() +
                        ": verify.history_file is missing (was it written by "
                        "'dmbench run --verify --out'?)");
    }
    const std::filesystem::path history =
        files[i].parent_path() / results[i]["verify"]["history_file"].get<std::string>();
    std::ifstream stream(history, std::ios::binary);
    if (!stream) throw ConfigError("cannot open " + history.string() + " (the run's history)");
    checker.LoadHistory(stream, widen_ns);
  }
  nlohmann::json verify = driver::VerifyJson(checker.Check());
  verify["clock_widening_ns"] = widen_ns;
  return verify;
}

}  // namespace

int RunMergeCommand(const std::vector<std::string>& arguments) {
  po::options_description options(
      "usage: dmbench merge --out FILE RESULT...\n"
      "Combines the results of every compute server of one real-cluster run (one file each,\n"
      "from 'dmbench run --memory-servers ... --compute-server I --out FILE') into one result;\n"
      "with --verify runs, checks their histories together.\n"
      "options");
  options.add_options()("help,h", "show this help")("out", po::value<std::string>(),
                                                    "the merged result")(
      "results", po::value<std::vector<std::string>>(), "the compute servers' results");
  po::positional_options_description positional;
  positional.add("results", -1);
  po::variables_map values;
  if (!ParseOptions(arguments, options, values, &positional)) return 0;
  if (!values.count("out") || !values.count("results")) {
    std::cerr << "dmbench merge: --out FILE and at least one result are required (see --help)\n";
    return 2;
  }
  std::vector<std::filesystem::path> files;
  std::vector<nlohmann::json> results;
  for (const std::string& file : values["results"].as<std::vector<std::string>>()) {
    files.emplace_back(file);
    results.push_back(ReadJsonFile(file));
  }
  // Every compute server exactly once, all from the same run.
  const nlohmann::json& first = results[0];
  if (first["backend"].value("type", "") != "verbs") {
    throw ConfigError(files[0].string() + ": not a real-cluster result (backend.type is " +
                      first["backend"].value("type", std::string("?")) +
                      "); only verbs results are merged");
  }
  const uint32_t compute_servers =
      first.value("cluster", nlohmann::json::object()).value("compute_servers", 0u);
  std::vector<int> seen(compute_servers, -1);
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].value("cluster", nlohmann::json::object()).contains("compute_server")) {
      throw ConfigError(files[i].string() +
                        ": not one compute server's result (merge takes the files that "
                        "'dmbench run --memory-servers ... --compute-server I --out FILE' wrote)");
    }
    if (SharedConfig(results[i]["config"]) != SharedConfig(first["config"])) {
      throw ConfigError(files[i].string() + " ran another config than " + files[0].string() +
                        ": results of different runs cannot be merged");
    }
    const uint32_t id = results[i]["cluster"]["compute_server"].get<uint32_t>();
    if (id >= compute_servers || seen[id] >= 0) {
      throw ConfigError(files[i].string() + ": compute server " + std::to_string(id) +
                        (id >= compute_servers
                             ? " is outside the cluster"
                             : " appears twice (also " + files[seen[id]].string() + ")"));
    }
    seen[id] = static_cast<int>(i);
  }
  for (uint32_t id = 0; id < compute_servers; ++id) {
    if (seen[id] < 0) {
      throw ConfigError("compute server " + std::to_string(id) + "'s result is missing: a run of " +
                        std::to_string(compute_servers) + " compute servers needs all " +
                        std::to_string(compute_servers) + " files");
    }
  }

  driver::RunStatistics total;
  nlohmann::json backends = nlohmann::json::array();
  nlohmann::json fallbacks = nlohmann::json::array();
  uint64_t index_operations = 0;
  double wall_seconds = 0;
  std::string started_at = first["wall_clock"]["started_at"];
  for (int position : seen) {
    const nlohmann::json& result = results[position];
    total.Merge(driver::RunStatistics::FromJson(result["operations"]));
    backends.push_back(result["backend"]);
    for (const auto& fallback : result["backend"]["fallbacks"]) {
      if (std::find(fallbacks.begin(), fallbacks.end(), fallback) == fallbacks.end()) {
        fallbacks.push_back(fallback);
      }
    }
    index_operations += result["cluster"]["index_operations"].get<uint64_t>();
    wall_seconds = std::max(wall_seconds, result["wall_clock"]["wall_seconds"].get<double>());
    started_at = std::min(started_at, result["wall_clock"]["started_at"].get<std::string>());
  }
  const double measured_seconds = first["measured_seconds"];
  const nlohmann::json operations = total.ToJson(measured_seconds);

  nlohmann::json merged = first;
  merged["config"] = SharedConfig(first["config"]);
  merged["backend"] = {{"type", "verbs"}, {"compute_servers", backends}, {"fallbacks", fallbacks}};
  merged["operations"] = operations;
  merged["throughput_mops"] = operations["overall"]["throughput_mops"];
  merged["latency_us"] = operations["overall"]["latency_us"];
  merged["cluster"] = {{"compute_servers", compute_servers},
                       {"index_operations", index_operations},
                       {"merged_from", files.size()}};
  merged["wall_clock"] = {{"started_at", started_at}, {"wall_seconds", wall_seconds}};
  // A lone compute server checked its own history; several defer to here.
  if (first["verify"].value("deferred_to_merge", false)) {
    merged["verify"] = VerifyTogether(results, files);
  }
  WriteJsonFile(values["out"].as<std::string>(), merged);
  std::cout << "merged " << files.size() << " compute servers' results into "
            << values["out"].as<std::string>() << "\n"
            << driver::SummaryTable(merged);
  return merged["verify"]["enabled"].get<bool>() ? ReportVerification(merged["verify"], "merge")
                                                 : 0;
}

}  // namespace dmbench::cli
