#include "harness/driver/result_merge.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/memory_budget.h"
#include "harness/driver/run_config.h"
#include "harness/driver/run_keys.h"
#include "harness/driver/run_statistics.h"
#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::driver {

namespace {

constexpr uint64_t kMaxComputeServers = 65535;

// The fields of one compute server's result that merge uses, checked.
struct ComputeServerResult {
  std::filesystem::path file;
  nlohmann::json document;
  nlohmann::json shared_config;  // the config without what differs by design
  uint32_t compute_server = 0;
  uint32_t compute_servers = 0;
  uint64_t index_operations = 0;
  RunStatistics statistics;
  double measured_seconds = 0;
  std::string started_at;
  double wall_seconds = 0;
  bool verify_enabled = false;
  bool verify_deferred = false;
  uint64_t operations_recorded = 0;
  uint64_t clock_uncertainty_ns = 0;
  uint64_t verified_elapsed_ns = 0;
  uint64_t verified_uncertainty_ns = 0;
  std::string history_file;
};

uint64_t RequiredUnsigned(JsonObjectReader& reader, const std::string& key, uint64_t min,
                          uint64_t max) {
  if (!reader.Has(key)) throw ConfigError(reader.FieldPath(key) + ": is required");
  return reader.Unsigned(key, 0, min, max);
}

bool RequiredBool(JsonObjectReader& reader, const std::string& key) {
  if (!reader.Has(key)) throw ConfigError(reader.FieldPath(key) + ": is required");
  return reader.Bool(key, false);
}

void ReadFields(ComputeServerResult& result) {
  const nlohmann::json& document = result.document;
  if (!document.is_object()) throw ConfigError("a result must be a JSON object");
  JsonObjectReader root(document, "");
  const uint64_t version = RequiredUnsigned(root, "schema_version", 0, UINT64_MAX);
  if (version != kResultSchemaVersion) {
    throw ConfigError("schema_version: is " + std::to_string(version) + ", this dmbench merges " +
                      std::to_string(kResultSchemaVersion));
  }
  JsonObjectReader backend = root.Object("backend");
  const std::string type = backend.Has("type") && backend.Raw("type").is_string()
                               ? backend.Raw("type").get<std::string>()
                           : backend.Has("type") ? backend.Raw("type").dump()
                                                 : "missing";
  if (type != "verbs") {
    throw ConfigError("not a real-cluster result (backend.type is " + Printable(type) +
                      "); only verbs results are merged");
  }
  if (!backend.Has("fallbacks") || !backend.Raw("fallbacks").is_array()) {
    throw ConfigError("backend.fallbacks: is required: a list");
  }
  if (!root.Has("cluster") || !root.Raw("cluster").is_object() ||
      !root.Raw("cluster").contains("compute_server")) {
    throw ConfigError(
        "not one compute server's result (merge takes the files that 'dmbench run "
        "--memory-servers ... --compute-server I --out FILE' wrote)");
  }
  JsonObjectReader cluster = root.Object("cluster");
  result.compute_servers =
      static_cast<uint32_t>(RequiredUnsigned(cluster, "compute_servers", 1, kMaxComputeServers));
  result.compute_server =
      static_cast<uint32_t>(RequiredUnsigned(cluster, "compute_server", 0, kMaxComputeServers - 1));
  result.index_operations = RequiredUnsigned(cluster, "index_operations", 0, UINT64_MAX);

  JsonObjectReader config = root.Object("config");
  config.Object("backend");  // an object, so that its compute_server can go
  result.shared_config = root.Raw("config");
  result.shared_config["backend"].erase("compute_server");

  result.statistics = RunStatistics::FromJson(root.Raw("operations"));
  result.measured_seconds = root.RequiredNumber("measured_seconds", 1e-9, 1e9);
  JsonObjectReader wall = root.Object("wall_clock");
  result.started_at = wall.RequiredString("started_at");
  result.wall_seconds = wall.RequiredNumber("wall_seconds", 0, 1e12);

  JsonObjectReader verify = root.Object("verify");
  result.verify_enabled = RequiredBool(verify, "enabled");
  result.verify_deferred = verify.Bool("deferred_to_merge", false);
  if (result.verify_enabled && !result.verify_deferred) {
    // A lone compute server's own check, which the merged result reports.
    RequiredUnsigned(verify, "operations_checked", 0, UINT64_MAX);
    RequiredUnsigned(verify, "violations", 0, UINT64_MAX);
    const nlohmann::json& examples = verify.Raw("examples");
    if (!examples.is_array() ||
        !std::all_of(examples.begin(), examples.end(),
                     [](const nlohmann::json& example) { return example.is_string(); })) {
      throw ConfigError("verify.examples: must be a list of strings");
    }
  }
  if (result.verify_deferred) {
    result.operations_recorded = RequiredUnsigned(verify, "operations_recorded", 0, UINT64_MAX);
    result.clock_uncertainty_ns =
        RequiredUnsigned(verify, "clock_uncertainty_ns", 0, uint64_t{1} << 62);
    result.verified_elapsed_ns =
        RequiredUnsigned(verify, "verified_elapsed_ns", 0, uint64_t{1} << 62);
    result.verified_uncertainty_ns =
        RequiredUnsigned(verify, "verified_uncertainty_ns", 0, uint64_t{1} << 62);
    if (!verify.Has("history_file")) {
      throw ConfigError(
          "verify.history_file is missing (was it written by 'dmbench run --verify --out'?)");
    }
    result.history_file = verify.RequiredString("history_file");
    // `run` writes it beside the result, by its bare name.
    if (result.history_file.find('/') != std::string::npos || result.history_file == "." ||
        result.history_file == "..") {
      throw ConfigError("verify.history_file: must be a file name beside the result, got " +
                        Printable(result.history_file));
    }
  }
}

ComputeServerResult ReadResult(const std::string& file) {
  ComputeServerResult result;
  result.file = file;
  result.document = ReadJsonFile(file);
  try {
    ReadFields(result);
  } catch (const ConfigError& error) {
    throw ConfigError(file + ": " + error.what());
  }
  return result;
}

// How far apart two processes' history clocks may be, and what the
// intervals are widened by. A process's history clock starts when it saw
// the cluster-wide start, at most its uncertainty late, and then runs at its
// own rate. Each process also measured the time from the start to the
// cluster-wide "verified" moment, which follows the last operation of every
// history; two processes' measures differ by their clocks' drift over the
// run plus the two moments' uncertainties. So during the run two clocks
// differ by at most twice the largest start uncertainty, plus the largest
// end uncertainty, plus the spread of the measures. A false violation needs
// them to differ by twice the widening, so widening every interval by the
// largest start uncertainty plus the largest end uncertainty plus the spread
// rules it out.
struct ClockWidening {
  uint64_t widen_ns = 0;
  uint64_t drift_ns = 0;  // the spread of the processes' elapsed times
};

ClockWidening WideningFor(const std::vector<ComputeServerResult>& results) {
  uint64_t start = 0;
  uint64_t done = 0;
  uint64_t shortest = UINT64_MAX;
  uint64_t longest = 0;
  for (const ComputeServerResult& result : results) {
    start = std::max(start, result.clock_uncertainty_ns);
    done = std::max(done, result.verified_uncertainty_ns);
    shortest = std::min(shortest, result.verified_elapsed_ns);
    longest = std::max(longest, result.verified_elapsed_ns);
  }
  // Each term is below 2^62, so the sum cannot overflow.
  return {start + done + (longest - shortest), longest - shortest};
}

// Checks the compute servers' histories together, on their clocks widened
// by WideningFor.
nlohmann::json VerifyTogether(const std::vector<ComputeServerResult>& results) {
  RunConfig config;
  try {
    config = RunConfig::FromJson(results[0].shared_config);
  } catch (const ConfigError& error) {
    throw ConfigError(results[0].file.string() + ": config." + error.what());
  }
  // The checker's initial values, 16 bytes per bulkloaded key.
  const uint64_t count = config.workload.BulkloadCount();
  RequireMemory(count > UINT64_MAX / 16 ? UINT64_MAX : count * 16,
                results[0].file.string() + ": checking the histories against the bulkload of " +
                    "config.workload.keys (" + std::to_string(config.workload.keys) +
                    "), 16 bytes per bulkloaded key,");
  const ClockWidening widening = WideningFor(results);
  indexes::ConsistencyChecker checker;
  // What the run bulkloaded: its trace's load file, or its key space's keys.
  RunKeys keys = [&] {
    try {
      return RunKeys(config, config.topology.clients());
    } catch (const ConfigError& error) {
      throw ConfigError(results[0].file.string() + ": " + error.what());
    }
  }();
  keys.bulkload()->ForEach(
      [&](const indexes::KeyValue& entry) { checker.SetInitial(entry.first, entry.second); });
  for (const ComputeServerResult& result : results) {
    const std::filesystem::path history = result.file.parent_path() / result.history_file;
    std::ifstream stream(history, std::ios::binary);
    if (!stream) {
      // The name comes from the result file: quoted short, it may be anything.
      throw ConfigError("cannot open the run's history " + Printable(result.history_file) +
                        " beside " + result.file.string());
    }
    const uint64_t before = checker.recorded();
    try {
      checker.LoadHistory(stream, widening.widen_ns);
    } catch (const ConfigError& error) {
      throw ConfigError(history.string() + ": " + error.what());
    }
    const uint64_t loaded = checker.recorded() - before;
    if (loaded != result.operations_recorded) {
      throw ConfigError(
          history.string() + ": holds " + std::to_string(loaded) + " operations, but " +
          result.file.string() + " says verify.operations_recorded " +
          std::to_string(result.operations_recorded) + ": not the history of that run");
    }
  }
  nlohmann::json verify = VerifyJson(checker.Check());
  verify["clock_widening_ns"] = widening.widen_ns;
  verify["clock_drift_ns"] = widening.drift_ns;
  return verify;
}

// Every compute server exactly once, all from the same run: the results in
// compute-server order.
std::vector<ComputeServerResult> InClusterOrder(std::vector<ComputeServerResult> results) {
  const ComputeServerResult& first = results.front();
  std::vector<int> seen(first.compute_servers, -1);
  for (size_t i = 0; i < results.size(); ++i) {
    const ComputeServerResult& result = results[i];
    const std::string name = result.file.string();
    if (result.shared_config != first.shared_config) {
      throw ConfigError(name + " ran another config than " + first.file.string() +
                        ": results of different runs cannot be merged");
    }
    if (result.compute_servers != first.compute_servers ||
        result.verify_enabled != first.verify_enabled ||
        result.verify_deferred != first.verify_deferred) {
      throw ConfigError(name +
                        ": cluster.compute_servers, verify.enabled or verify.deferred_to_merge "
                        "differ from " +
                        first.file.string() + "'s: results of different runs cannot be merged");
    }
    // One compute server's own check covers only its own clients' operations.
    if (result.verify_enabled && !result.verify_deferred && result.compute_servers > 1) {
      throw ConfigError(name + ": verify was checked by compute server " +
                        std::to_string(result.compute_server) + " alone, but a run of " +
                        std::to_string(result.compute_servers) +
                        " compute servers leaves its check to merge "
                        "(verify.deferred_to_merge: true, with its history_file)");
    }
    const uint32_t id = result.compute_server;
    if (id >= first.compute_servers || seen[id] >= 0) {
      throw ConfigError(name + ": compute server " + std::to_string(id) +
                        (id >= first.compute_servers
                             ? " is outside the cluster"
                             : " appears twice (also " + results[seen[id]].file.string() + ")"));
    }
    seen[id] = static_cast<int>(i);
  }
  std::vector<ComputeServerResult> ordered;
  for (uint32_t id = 0; id < first.compute_servers; ++id) {
    if (seen[id] < 0) {
      throw ConfigError("compute server " + std::to_string(id) + "'s result is missing: a run of " +
                        std::to_string(first.compute_servers) + " compute servers needs all " +
                        std::to_string(first.compute_servers) + " files");
    }
    ordered.push_back(std::move(results[seen[id]]));
  }
  return ordered;
}

}  // namespace

nlohmann::json MergeResultFiles(const std::vector<std::string>& files) {
  if (files.empty()) throw ConfigError("no result files to merge");
  std::vector<ComputeServerResult> read;
  for (const std::string& file : files) read.push_back(ReadResult(file));
  const std::vector<ComputeServerResult> results = InClusterOrder(std::move(read));

  RunStatistics total;
  nlohmann::json backends = nlohmann::json::array();
  nlohmann::json fallbacks = nlohmann::json::array();
  uint64_t index_operations = 0;
  double wall_seconds = 0;
  std::string started_at = results.front().started_at;
  for (const ComputeServerResult& result : results) {
    total.Merge(result.statistics);
    backends.push_back(result.document["backend"]);
    for (const auto& fallback : result.document["backend"]["fallbacks"]) {
      if (std::find(fallbacks.begin(), fallbacks.end(), fallback) == fallbacks.end()) {
        fallbacks.push_back(fallback);
      }
    }
    index_operations += result.index_operations;
    wall_seconds = std::max(wall_seconds, result.wall_seconds);
    started_at = std::min(started_at, result.started_at);
  }
  const ComputeServerResult& first = results.front();
  const nlohmann::json operations = total.ToJson(first.measured_seconds);

  nlohmann::json merged = first.document;
  merged["config"] = first.shared_config;
  merged["backend"] = {{"type", "verbs"}, {"compute_servers", backends}, {"fallbacks", fallbacks}};
  merged["operations"] = operations;
  merged["throughput_mops"] = operations["overall"]["throughput_mops"];
  merged["latency_us"] = operations["overall"]["latency_us"];
  merged["cluster"] = {{"compute_servers", first.compute_servers},
                       {"index_operations", index_operations},
                       {"merged_from", files.size()}};
  merged["wall_clock"] = {{"started_at", started_at}, {"wall_seconds", wall_seconds}};
  // A lone compute server checked its own history; several defer to here.
  if (first.verify_deferred) merged["verify"] = VerifyTogether(results);
  return merged;
}

}  // namespace dmbench::driver
