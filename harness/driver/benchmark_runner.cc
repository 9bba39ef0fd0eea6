#include "harness/driver/benchmark_runner.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "harness/driver/arrival_schedule.h"
#include "harness/driver/build_info.h"
#include "harness/driver/fabric.h"
#include "harness/driver/lookahead_operations.h"
#include "harness/driver/memory_budget.h"
#include "harness/driver/run_keys.h"
#include "harness/driver/run_statistics.h"
#include "indexes/common/consistency_checker.h"
#include "indexes/index_factory.h"
#include "workloads/client_workload.h"
#include "workloads/key_space.h"
#include "workloads/trace_workload.h"
#include "workloads/workload_scale.h"

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
// The checker's times count from `origin`, the cluster-wide start, so that
// the histories of several compute-server processes share one clock.
void Execute(indexes::Index& index, rdma::Client& client, const workloads::Operation& op,
             indexes::IndexOpStats& stats, std::vector<indexes::KeyValue>& range,
             indexes::ConsistencyChecker* checker, uint64_t invoke, uint64_t origin) {
  const uint32_t id = client.location().index;
  invoke -= origin;
  auto now = [&] { return client.NowNanoseconds() - origin; };
  switch (op.type) {
    case OpType::kInsert:
    case OpType::kUpdate:
      index.Upsert(client, op.key, op.value, stats);
      if (checker) checker->RecordUpsert(id, op.key, op.value, invoke, now());
      break;
    case OpType::kLookup: {
      uint64_t value = 0;
      const bool found = index.Lookup(client, op.key, &value, stats);
      if (checker) {
        checker->RecordLookup(id, op.key, found ? std::optional(value) : std::nullopt, invoke,
                              now());
      }
      break;
    }
    case OpType::kDelete: {
      const bool existed = index.Delete(client, op.key, stats);
      if (checker) checker->RecordDelete(id, op.key, existed, invoke, now());
      break;
    }
    case OpType::kRange:
      index.RangeQuery(client, op.key, op.range_end, op.limit, &range, stats);
      if (checker) {
        checker->RecordRange(id, op.key, op.range_end, op.limit, range, invoke, now());
      }
      break;
  }
}

}  // namespace

nlohmann::json VerifyJson(const indexes::ConsistencyReport& report) {
  nlohmann::json examples = nlohmann::json::array();
  for (const auto& violation : report.examples) examples.push_back(violation.message);
  return {{"enabled", true},
          {"operations_checked", report.operations_checked},
          {"violations", report.violations},
          {"examples", examples}};
}

std::unique_ptr<indexes::Index> MakeConfiguredIndex(const RunConfig& config,
                                                    const rdma::ClusterShape& shape) {
  return indexes::MakeIndex(config.index_engine, config.index, shape, config.seed);
}

BenchmarkOutcome RunBenchmark(const RunConfig& config, std::ostream* progress,
                              const IndexMaker& make_index, MeasuredRunObserver* observer) {
  const auto wall_start = std::chrono::steady_clock::now();
  const std::string started_at = UtcNow();
  RequireMachineFor(config);
  const std::unique_ptr<Fabric> fabric = MakeFabric(config);
  const rdma::ClusterShape& shape = fabric->cluster().shape();
  const std::unique_ptr<indexes::Index> index = make_index(config, shape);

  RunKeys keys(config, shape.clients);
  workloads::TraceWorkload* const trace = keys.trace();
  workloads::KeySpace* const key_space = keys.key_space();
  const std::shared_ptr<const indexes::BulkloadSource>& bulkload = keys.bulkload();
  fabric->Synchronize(0, "connected");
  if (progress) *progress << "[" << config.name << "] bulkload " << bulkload->size() << " keys\n";
  fabric->Run(
      [&](rdma::Client& client) {
        if (client.location().index == 0) index->Bulkload(client, bulkload, config.fill_factor);
      },
      /*measured=*/false);
  fabric->Synchronize(1, "bulkload done");
  std::shared_ptr<indexes::ConsistencyChecker> checker;
  if (config.verify) {
    checker = std::make_shared<indexes::ConsistencyChecker>();
    bulkload->ForEach(
        [&](const indexes::KeyValue& entry) { checker->SetInitial(entry.first, entry.second); });
  }

  const uint32_t clients = shape.clients;
  const Fabric::Moment start = fabric->Synchronize(2, "start");
  const uint64_t base_ns = start.at_ns;
  const uint64_t warm_end = base_ns + static_cast<uint64_t>(config.warmup_ms * 1e6);
  const uint64_t end = warm_end + static_cast<uint64_t>(config.measure_ms * 1e6);
  std::vector<RunStatistics> statistics(fabric->statistics_slots());
  std::vector<std::vector<uint64_t>> written_keys(clients);
  std::atomic<uint64_t> executed{0};
  std::atomic<uint64_t> next_progress{warm_end};
  const uint64_t progress_step = std::max<uint64_t>(1, (end - warm_end) / 10);
  const uint32_t reporter = fabric->first_local_client();

  if (observer != nullptr) observer->MeasuredRunStarts();
  fabric->Run(
      [&](rdma::Client& client) {
        const uint32_t id = client.location().index;
        const std::unique_ptr<workloads::OperationStream> workload =
            trace ? trace->ForClient(id)
                  : std::make_unique<workloads::ClientWorkload>(config.workload, *key_space,
                                                                config.seed, id, clients);
        LookaheadOperations operations(*workload);
        std::vector<indexes::KeyValue> range;
        ArrivalSchedule arrivals(config.target_mops, clients, config.seed, id, base_ns);
        RunStatistics& recorded = statistics[fabric->StatisticsSlotOf(client.location())];
        for (;;) {
          uint64_t intended = 0;
          if (arrivals.open()) {
            intended = arrivals.Next();
            if (intended >= end) break;
            client.SleepUntil(intended);
          }
          if (client.NowNanoseconds() >= end) {
            // Past capacity: the arrivals due before the window's end that
            // this client never got to are censored, each with its type as
            // it would have been drawn (the stream is not used again).
            if (arrivals.open()) {
              for (; intended < end; intended = arrivals.Next()) {
                recorded.RecordCensored(operations.Next().type, end - intended);
              }
            }
            break;
          }
          const workloads::Operation op = operations.Next();
          for (size_t distance = 1; distance <= operations.depth(); ++distance) {
            index->Prefetch(client, operations.Ahead(distance).key, distance);
          }
          client.ChargeCpu(rdma::CpuWork::kKeyGeneration, 1);
          // The clock starts once the key is drawn, as in Sherman's benchmark
          // (test/benchmark.cpp draws it, then starts its timer): a latency
          // is the index's, and the generator's CPU counts in throughput only.
          const uint64_t op_start = client.NowNanoseconds();
          rdma::OpStats verbs;
          indexes::IndexOpStats index_stats;
          {
            rdma::StatsScope scope(client, verbs);
            client.BeginTask();
            Execute(*index, client, op, index_stats, range, checker.get(), op_start, base_ns);
            client.EndTask();
          }
          const uint64_t finish = client.NowNanoseconds();
          if (finish > warm_end && finish <= end) {
            recorded.Record(op.type, finish - op_start, arrivals.open() ? finish - intended : 0,
                            verbs, index_stats);
          } else if (arrivals.open() && finish > end) {
            recorded.RecordCensored(op.type, end - intended);  // in flight at the end
          }
          if (checker && op.type != OpType::kLookup && op.type != OpType::kRange) {
            written_keys[id].push_back(op.key);
          }
          executed.fetch_add(1, std::memory_order_relaxed);
          if (progress && id == reporter && finish >= next_progress && next_progress <= end) {
            const double done =
                std::min(1.0, static_cast<double>(finish - warm_end) / (end - warm_end));
            char line[160];
            std::snprintf(
                line, sizeof(line), "[%s] %3.0f%% of %.3g ms %s, %llu operations, %.1f s wall\n",
                config.name.c_str(), done * 100, config.measure_ms, fabric->clock_name(),
                static_cast<unsigned long long>(executed.load(std::memory_order_relaxed)),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start)
                    .count());
            *progress << line << std::flush;
            next_progress += progress_step;
          }
        }
      },
      /*measured=*/true);
  if (observer != nullptr) observer->MeasuredRunEnded();
  // Every write of every compute server is done before anyone looks back.
  fabric->Synchronize(3, "run done");

  RunStatistics total;
  for (const RunStatistics& slot : statistics) total.Merge(slot);
  const double measured_seconds = config.measure_ms / 1e3;

  BenchmarkOutcome outcome;
  nlohmann::json verify = {{"enabled", false}};
  if (checker) {
    // Every key written is looked up once more after the run: a lost
    // acknowledged write shows as a stale or missing value. Each process
    // looks up the keys its own clients wrote.
    std::set<uint64_t> keys;
    for (const auto& client : written_keys) keys.insert(client.begin(), client.end());
    const std::vector<uint64_t> to_check(keys.begin(), keys.end());
    const uint32_t first = fabric->first_local_client();
    const uint32_t local = fabric->local_clients();
    fabric->Run(
        [&](rdma::Client& client) {
          indexes::IndexOpStats ignored;
          for (size_t i = client.location().index - first; i < to_check.size(); i += local) {
            uint64_t value = 0;
            const uint64_t invoke = client.NowNanoseconds() - base_ns;
            const bool found = index->Lookup(client, to_check[i], &value, ignored);
            checker->RecordLookup(client.location().index, to_check[i],
                                  found ? std::optional(value) : std::nullopt, invoke,
                                  client.NowNanoseconds() - base_ns);
          }
        },
        /*measured=*/false);
    // The last operation of every process's history is recorded by now.
    const Fabric::Moment verified = fabric->Synchronize(4, "verified");
    if (SharedWithOtherProcesses(config)) {
      verify = {{"enabled", true},
                {"deferred_to_merge", true},
                {"operations_recorded", checker->recorded()},
                {"clock_uncertainty_ns", start.uncertainty_ns},
                // Two cluster-wide moments on this process's clock, before
                // and after its whole history: merge compares the processes'
                // to bound how far their clocks drifted apart in between.
                {"verified_elapsed_ns", verified.at_ns - start.at_ns},
                {"verified_uncertainty_ns", verified.uncertainty_ns}};
      outcome.history = checker;
    } else {
      const indexes::ConsistencyReport report = checker->Check();
      verify = VerifyJson(report);
      outcome.verified_ok = report.ok();
    }
  }

  const nlohmann::json operations = total.ToJson(measured_seconds);
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  outcome.result = {
      {"schema_version", kResultSchemaVersion},
      {"tool", ToolJson()},
      {"config", config.ToJson()},
      {"backend", fabric->BackendJson()},
      {"seed", config.seed},
      {"bulkload", {{"keys", bulkload->size()}, {"fill_factor", config.fill_factor}}},
      {"workload_scale", (trace ? trace->Scale() : workloads::DescribeScale(*key_space)).ToJson()},
      {"measured_seconds", measured_seconds},
      {"throughput_mops", operations["overall"]["throughput_mops"]},
      {"latency_us", operations["overall"]["latency_us"]},
      {"operations", operations},
      {"verify", verify},
      {"wall_clock",
       {{"started_at", started_at},
        {"wall_seconds", wall_seconds},
        {"peak_rss_bytes", PeakResidentBytes()},
        {"huge_page_bytes", HugePageResidentBytes()}}}};
  if (trace) outcome.result["trace"] = trace->ToJson();
  fabric->AddResultSections(outcome.result, executed.load());
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
