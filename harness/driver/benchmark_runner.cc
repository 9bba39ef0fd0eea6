#include "harness/driver/benchmark_runner.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <set>
#include <vector>

#include "harness/driver/build_info.h"
#include "harness/driver/run_statistics.h"
#include "harness/rdma/sim/sim_cluster.h"
#include "indexes/common/consistency_checker.h"
#include "indexes/tree_factory.h"
#include "workloads/client_workload.h"
#include "workloads/key_space.h"

namespace dmbench::driver {

namespace {

using workloads::OpType;

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

// Executes one operation, recording it for the checker when there is one.
void Execute(indexes::BLinkTree& tree, rdma::Client& client, const workloads::Operation& op,
             indexes::IndexOpStats& stats, std::vector<indexes::KeyValue>& range,
             indexes::ConsistencyChecker* checker, uint64_t invoke) {
  const uint32_t id = client.location().index;
  switch (op.type) {
    case OpType::kInsert:
    case OpType::kUpdate:
      tree.Upsert(client, op.key, op.value, stats);
      if (checker) checker->RecordUpsert(id, op.key, op.value, invoke, client.NowNanoseconds());
      break;
    case OpType::kLookup: {
      uint64_t value = 0;
      const bool found = tree.Lookup(client, op.key, &value, stats);
      if (checker) {
        checker->RecordLookup(id, op.key, found ? std::optional(value) : std::nullopt, invoke,
                              client.NowNanoseconds());
      }
      break;
    }
    case OpType::kDelete: {
      const bool existed = tree.Delete(client, op.key, stats);
      if (checker) checker->RecordDelete(id, op.key, existed, invoke, client.NowNanoseconds());
      break;
    }
    case OpType::kRange:
      tree.RangeQuery(client, op.key, op.range_end, op.limit, &range, stats);
      if (checker) {
        checker->RecordRange(id, op.key, op.range_end, op.limit, range, invoke,
                             client.NowNanoseconds());
      }
      break;
  }
}

nlohmann::json VerifyJson(const indexes::ConsistencyReport& report) {
  nlohmann::json examples = nlohmann::json::array();
  for (const auto& violation : report.examples) examples.push_back(violation.message);
  return {{"enabled", true},
          {"operations_checked", report.operations_checked},
          {"violations", report.violations},
          {"examples", examples}};
}

}  // namespace

BenchmarkOutcome RunBenchmark(const RunConfig& config, std::ostream* progress) {
  const auto wall_start = std::chrono::steady_clock::now();
  const std::string started_at = UtcNow();
  rdma::sim::NicProfile profile = rdma::sim::NicProfile::Find(config.backend.nic);
  if (!config.backend.dma_read_order.empty()) {
    profile.dma_read_order = rdma::sim::ParseDmaOrder(config.backend.dma_read_order);
  }
  rdma::sim::SimOptions sim_options;
  sim_options.seed = config.seed;
  rdma::sim::SimCluster cluster(config.topology, profile, sim_options);
  const std::unique_ptr<indexes::BLinkTree> tree =
      indexes::MakeTree(config.index, cluster.shape(), config.seed);

  workloads::KeySpace key_space(config.workload, config.seed);
  const std::vector<indexes::KeyValue> entries = key_space.BulkloadEntries(config.seed);
  if (progress) *progress << "[" << config.name << "] bulkload " << entries.size() << " keys\n";
  cluster.Run([&](rdma::Client& client) {
    if (client.location().index == 0) tree->Bulkload(client, entries, config.fill_factor);
  });
  std::optional<indexes::ConsistencyChecker> checker;
  if (config.verify) {
    checker.emplace();
    for (const auto& [key, value] : entries) checker->SetInitial(key, value);
  }

  const uint32_t clients = cluster.shape().clients;
  const uint64_t base_ns =
      static_cast<uint64_t>(cluster.now() / rdma::sim::kPicosecondsPerNanosecond);
  const uint64_t warm_end = base_ns + static_cast<uint64_t>(config.warmup_ms * 1e6);
  const uint64_t end = warm_end + static_cast<uint64_t>(config.measure_ms * 1e6);
  std::vector<RunStatistics> statistics(clients);
  std::vector<std::vector<uint64_t>> written_keys(clients);
  std::atomic<uint64_t> executed{0};
  uint64_t next_progress = warm_end;
  const uint64_t progress_step = std::max<uint64_t>(1, (end - warm_end) / 10);

  const rdma::sim::SimRunStats run_stats = cluster.Run([&](rdma::Client& client) {
    const uint32_t id = client.location().index;
    workloads::ClientWorkload workload(config.workload, key_space, config.seed, id, clients);
    std::vector<indexes::KeyValue> range;
    indexes::ConsistencyChecker* check = checker ? &*checker : nullptr;
    for (;;) {
      const uint64_t start = client.NowNanoseconds();
      if (start >= end) break;
      const workloads::Operation op = workload.Next();
      rdma::OpStats verbs;
      indexes::IndexOpStats index;
      {
        rdma::StatsScope scope(client, verbs);
        Execute(*tree, client, op, index, range, check, start);
      }
      const uint64_t finish = client.NowNanoseconds();
      if (finish > warm_end && finish <= end)
        statistics[id].Record(op.type, finish - start, verbs, index);
      if (check && op.type != OpType::kLookup && op.type != OpType::kRange) {
        written_keys[id].push_back(op.key);
      }
      executed.fetch_add(1, std::memory_order_relaxed);
      if (progress && id == 0 && finish >= next_progress && next_progress <= end) {
        const double done =
            std::min(1.0, static_cast<double>(finish - warm_end) / (end - warm_end));
        char line[160];
        std::snprintf(
            line, sizeof(line), "[%s] %3.0f%% of %.3g ms simulated, %llu operations, %.1f s wall\n",
            config.name.c_str(), done * 100, config.measure_ms,
            static_cast<unsigned long long>(executed.load(std::memory_order_relaxed)),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count());
        *progress << line << std::flush;
        next_progress += progress_step;
      }
    }
  });

  RunStatistics total;
  for (const RunStatistics& client : statistics) total.Merge(client);
  const double measured_seconds = config.measure_ms / 1e3;

  BenchmarkOutcome outcome;
  nlohmann::json verify = {{"enabled", false}};
  if (checker) {
    // Every key written is looked up once more after the run: a lost
    // acknowledged write shows as a stale or missing value.
    std::set<uint64_t> keys;
    for (const auto& client : written_keys) keys.insert(client.begin(), client.end());
    const std::vector<uint64_t> to_check(keys.begin(), keys.end());
    cluster.Run([&](rdma::Client& client) {
      indexes::IndexOpStats ignored;
      for (size_t i = client.location().index; i < to_check.size(); i += clients) {
        uint64_t value = 0;
        const uint64_t invoke = client.NowNanoseconds();
        const bool found = tree->Lookup(client, to_check[i], &value, ignored);
        checker->RecordLookup(client.location().index, to_check[i],
                              found ? std::optional(value) : std::nullopt, invoke,
                              client.NowNanoseconds());
      }
    });
    const indexes::ConsistencyReport report = checker->Check();
    verify = VerifyJson(report);
    outcome.verified_ok = report.ok();
  }

  const SourceRevision revision = CurrentRevision();
  const nlohmann::json operations = total.ToJson(measured_seconds);
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  outcome.result = {
      {"schema_version", kResultSchemaVersion},
      {"tool",
       {{"name", "dmbench"}, {"git_revision", revision.commit}, {"git_dirty", revision.dirty}}},
      {"config", config.ToJson()},
      {"backend",
       {{"type", "sim"},
        {"nic_profile", profile.ToJson()},
        {"fallbacks", nlohmann::json::array()}}},
      {"seed", config.seed},
      {"bulkload", {{"keys", entries.size()}, {"fill_factor", config.fill_factor}}},
      {"measured_seconds", measured_seconds},
      {"throughput_mops", operations["overall"]["throughput_mops"]},
      {"latency_us", operations["overall"]["latency_us"]},
      {"operations", operations},
      {"verify", verify},
      {"simulator",
       {{"simulated_seconds", run_stats.simulated_seconds},
        {"events", run_stats.events},
        {"verbs", run_stats.verbs},
        {"index_operations", executed.load()},
        {"torn_reads", cluster.torn_reads()}}},
      {"wall_clock",
       {{"started_at", started_at},
        {"wall_seconds", wall_seconds},
        {"simulation_wall_seconds", run_stats.wall_seconds},
        {"index_operations_per_wall_second",
         run_stats.wall_seconds > 0 ? executed.load() / run_stats.wall_seconds : 0.0},
        {"events_per_wall_second", run_stats.events_per_wall_second()}}}};
  return outcome;
}

std::string SummaryTable(const nlohmann::json& result) {
  std::string table;
  char line[200];
  std::snprintf(line, sizeof(line), "%-8s %10s %9s %9s %9s %9s %8s %8s\n", "op", "count", "Mops",
                "p50 us", "p99 us", "p99.9 us", "RTT avg", "RTT p99");
  table += line;
  auto row = [&](const std::string& name, const nlohmann::json& op) {
    std::snprintf(line, sizeof(line), "%-8s %10llu %9.3f %9.2f %9.2f %9.2f %8.2f %8.0f\n",
                  name.c_str(), op["count"].get<unsigned long long>(),
                  op["throughput_mops"].get<double>(), op["latency_us"]["p50"].get<double>(),
                  op["latency_us"]["p99"].get<double>(), op["latency_us"]["p999"].get<double>(),
                  op["round_trips"]["mean"].get<double>(), op["round_trips"]["p99"].get<double>());
    table += line;
  };
  for (const auto& [name, op] : result["operations"]["by_op"].items()) row(name, op);
  row("all", result["operations"]["overall"]);
  return table;
}

}  // namespace dmbench::driver
