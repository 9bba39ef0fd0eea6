#include "harness/fuzz/merge_inputs.h"

#include <sstream>

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/run_config.h"
#include "harness/driver/run_statistics.h"
#include "harness/fuzz/config_inputs.h"
#include "harness/util/file_output.h"
#include "indexes/common/consistency_checker.h"
#include "workloads/key_space.h"

namespace dmbench::fuzz {

namespace {

constexpr uint32_t kComputeServers = 2;

const nlohmann::json kConfig = {
    {"name", "fuzz-merge"},
    {"topology",
     {{"memory_servers", 2},
      {"compute_servers", kComputeServers},
      {"threads_per_compute_server", 1},
      {"colocated", false}}},
    {"backend", {{"type", "verbs"}, {"memory_servers", {"ms0:7471", "ms1:7471"}}}},
    {"workload", {{"keys", 64}, {"mix", "write-intensive"}}},
    {"run", {{"verify", true}}}};

std::string HistoryName(uint32_t compute_server) {
  return "cs-" + std::to_string(compute_server) + ".json.history";
}

std::string DamagedBytes(Random& random, std::string bytes) {
  switch (random.Uniform(4)) {
    case 0:
      bytes.resize(random.Uniform(bytes.size() + 1));
      break;
    case 1:
      for (uint64_t i = 1 + random.Uniform(4); i > 0 && !bytes.empty(); --i) {
        bytes[random.Uniform(bytes.size())] = static_cast<char>(random.NextU64());
      }
      break;
    case 2:
      // A count field (operations, ranges) made huge.
      if (bytes.size() >= 20) bytes[12 + random.Uniform(8)] = static_cast<char>(0xff);
      break;
    default:
      bytes.append(random.Uniform(64), static_cast<char>(random.NextU64()));
  }
  return bytes;
}

}  // namespace

MergeInputs::MergeInputs() {
  const driver::RunConfig config = driver::RunConfig::FromJson(kConfig);
  const workloads::KeySpace key_space(config.workload, config.seed);
  const auto entries = key_space.BulkloadEntries(config.seed);
  for (uint32_t cs = 0; cs < kComputeServers; ++cs) {
    // A consistent history: a lookup of a bulkloaded key, an upsert and its
    // lookup, timed as after the cluster-wide start.
    indexes::ConsistencyChecker checker;
    const auto& [key, value] = entries[cs];
    checker.RecordLookup(cs, key, value, 1000, 3000);
    checker.RecordUpsert(cs, key, value + 7, 4000, 6000);
    checker.RecordLookup(cs, key, value + 7, 7000, 9000);
    std::ostringstream history;
    checker.SaveHistory(history);
    histories_.push_back(history.str());

    driver::RunStatistics statistics;
    rdma::OpStats verbs;
    verbs.round_trips = 2;
    verbs.reads = 2;
    verbs.bytes_read = 2048;
    indexes::IndexOpStats index;
    index.cache_hits = 1;
    statistics.Record(workloads::OpType::kLookup, 2500 + cs, 0, verbs, index);
    statistics.Record(workloads::OpType::kInsert, 4100, 0, verbs, index);
    nlohmann::json resolved = config.ToJson();
    resolved["backend"]["compute_server"] = cs;
    const nlohmann::json operations = statistics.ToJson(0.001);
    results_.push_back(
        {{"schema_version", driver::kResultSchemaVersion},
         {"tool", {{"name", "dmbench"}, {"git_revision", "fuzz"}, {"git_dirty", false}}},
         {"config", resolved},
         {"backend",
          {{"type", "verbs"},
           {"device", "rxe0"},
           {"compute_server", cs},
           {"fallbacks", nlohmann::json::array()}}},
         {"seed", config.seed},
         {"measured_seconds", 0.001},
         {"throughput_mops", operations["overall"]["throughput_mops"]},
         {"latency_us", operations["overall"]["latency_us"]},
         {"operations", operations},
         {"verify",
          {{"enabled", true},
           {"deferred_to_merge", true},
           {"operations_recorded", 3},
           {"clock_uncertainty_ns", 500 * (cs + 1)},
           {"verified_elapsed_ns", 1'000'000 + 100 * cs},
           {"verified_uncertainty_ns", 300},
           {"history_file", HistoryName(cs)}}},
         {"wall_clock",
          {{"started_at", "2024-05-0" + std::to_string(cs + 1) + "T10:00:00Z"},
           {"wall_seconds", 1.5},
           {"run_wall_seconds", 1.0}}},
         {"cluster",
          {{"compute_server", cs},
           {"compute_servers", kComputeServers},
           {"index_operations", 2}}}});
  }
  donors_ = JsonMutator::CollectDonors(results_);
}

std::vector<std::string> MergeInputs::WriteValid(const std::filesystem::path& directory) const {
  std::vector<std::string> files;
  for (size_t i = 0; i < results_.size(); ++i) {
    const std::filesystem::path file = directory / ("cs-" + std::to_string(i) + ".json");
    WriteFileWhole(file, Text(results_[i]));
    WriteFileWhole(directory / HistoryName(static_cast<uint32_t>(i)), histories_[i]);
    files.push_back(file.string());
  }
  return files;
}

std::vector<std::string> MergeInputs::Write(Random& random, const std::filesystem::path& directory,
                                            std::string& input) const {
  JsonMutator mutator(random, donors_);
  std::vector<std::string> texts;
  for (const nlohmann::json& result : results_) texts.push_back(Text(result));
  std::vector<std::string> histories = histories_;
  const size_t victim = random.Uniform(texts.size());
  switch (random.Uniform(5)) {
    case 0:
      texts[victim] = Text(mutator.Mutate(results_[victim], 1 + random.Uniform(4)));
      break;
    case 1: {
      // The same damage to every file's config, so that they still agree
      // and merge reads on.
      const nlohmann::json config = mutator.Mutate(results_[0]["config"], 1 + random.Uniform(3));
      for (size_t i = 0; i < texts.size(); ++i) {
        nlohmann::json result = results_[i];
        result["config"] = config;
        if (config.is_object() && config.contains("backend") && config["backend"].is_object()) {
          result["config"]["backend"]["compute_server"] = i;
        }
        texts[i] = Text(result);
      }
      break;
    }
    case 2:
      texts[victim] = mutator.DamageText(texts[victim]);
      break;
    case 3:
      histories[victim] = DamagedBytes(random, histories[victim]);
      break;
    default:
      break;  // the files as they are, but given in another way (below)
  }
  std::vector<std::string> files;
  for (size_t i = 0; i < texts.size(); ++i) {
    const std::filesystem::path file = directory / ("cs-" + std::to_string(i) + ".json");
    WriteFileWhole(file, texts[i]);
    WriteFileWhole(directory / HistoryName(static_cast<uint32_t>(i)), histories[i]);
    files.push_back(file.string());
  }
  switch (random.Uniform(8)) {
    case 0:
      files.pop_back();
      break;
    case 1:
      files.push_back(files.front());
      break;
    case 2:
      std::swap(files.front(), files.back());
      break;
    case 3:
      std::filesystem::remove(directory / HistoryName(static_cast<uint32_t>(victim)));
      break;
    default:
      break;
  }
  input.clear();
  for (size_t i = 0; i < texts.size(); ++i) {
    input += "cs-" + std::to_string(i) + ".json: " + texts[i] + "\n";
    if (histories[i] != histories_[i]) {
      input += "  its history is damaged (" + std::to_string(histories[i].size()) + " bytes)\n";
    }
  }
  for (const std::string& file : files) input += "merge " + file + "\n";
  return files;
}

}  // namespace dmbench::fuzz
