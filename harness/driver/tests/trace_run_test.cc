// A YCSB-format trace, made here, replayed end to end on the simulated
// fabric: the load trace bulkloaded, every operation kind of the run trace
// executed and checked by the consistency checker, the result's trace section
// describing what ran, and the same trace giving the same result.
#include <gtest/gtest.h>

#include <string>

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/run_config.h"
#include "harness/util/tests/scratch_file.h"

namespace dmbench::driver {
namespace {

constexpr int kLoadedKeys = 2000;
constexpr int kRunOperations = 6000;

// YCSB's basic database output for a load of kLoadedKeys keys, and a run of
// reads, updates, inserts of new keys, scans and deletes over skewed keys.
std::pair<std::string, std::string> MakeTraces() {
  std::string load = "[OVERALL], RunTime(ms), 10\n";
  for (int i = 0; i < kLoadedKeys; ++i) {
    load += "INSERT usertable user" + std::to_string(i) + " [ field0=xyz ]\n";
  }
  std::string run;
  for (int i = 0; i < kRunOperations; ++i) {
    const int key = (i * i + 7 * i) % (i % 3 == 0 ? 50 : kLoadedKeys);  // some keys hot
    const std::string name = " usertable user" + std::to_string(key);
    switch (i % 20) {
      case 0:
        run += "SCAN" + name + " " + std::to_string(1 + i % 30) + " [ <all fields>]\n";
        break;
      case 1:
        run += "DELETE" + name + "\n";
        break;
      case 2:
        run += "INSERT usertable new" + std::to_string(i) + " [ field0=abc ]\n";
        break;
      default:
        run += (i % 2 == 0 ? "READ" : "UPDATE") + name + " [ field1=q ]\n";
    }
  }
  return {WriteScratchFile("ycsb-load.txt", load), WriteScratchFile("ycsb-run.txt", run)};
}

RunConfig TraceRun(const std::string& preset) {
  const auto [load, run] = MakeTraces();
  const nlohmann::json document = {
      {"name", "trace"},
      {"index", {{"preset", preset}, {"cache_mib", 1}}},
      {"topology",
       {{"memory_servers", 2},
        {"compute_servers", 2},
        {"threads_per_compute_server", 2},
        {"coroutines_per_thread", 2},
        {"host_memory_mib", 64},
        {"chunk_mib", 1}}},
      {"workload", {{"trace", run}, {"trace_load", load}}},
      {"run", {{"warmup_ms", 0.05}, {"measure_ms", 1.0}, {"seed", 5}, {"verify", true}}}};
  return RunConfig::FromJson(document);
}

TEST(TraceRun, AYcsbTraceRunsEndToEndAndPassesTheChecker) {
  for (const std::string preset : {"sherman", "fgplus"}) {
    const BenchmarkOutcome outcome = RunBenchmark(TraceRun(preset), nullptr);
    const nlohmann::json& result = outcome.result;
    EXPECT_TRUE(outcome.verified_ok) << preset << ": " << result["verify"].dump(2);
    EXPECT_GT(result["verify"]["operations_checked"].get<uint64_t>(), 500u) << preset;
    EXPECT_EQ(result["bulkload"]["keys"], kLoadedKeys);
    const nlohmann::json& trace = result["trace"];
    EXPECT_EQ(trace["run"]["operations"], kRunOperations);
    EXPECT_EQ(trace["run"]["by_op"]["range"], kRunOperations / 20);
    EXPECT_EQ(trace["load"]["operations"], kLoadedKeys);
    EXPECT_EQ(trace["load"]["lines"], kLoadedKeys + 1);
    EXPECT_EQ(trace["split"], "round-robin");
    EXPECT_EQ(trace["clients"], 8);
    EXPECT_GE(trace["max_passes"].get<uint64_t>(), 1u);
    for (const char* op : {"lookup", "update", "insert", "range", "delete"}) {
      EXPECT_GT(result["operations"]["by_op"][op]["count"].get<uint64_t>(), 0u) << preset << op;
    }
    // The scale is the trace's, measured: its distinct keys, and a hot key.
    EXPECT_GT(result["workload_scale"]["keys"].get<uint64_t>(), uint64_t{kLoadedKeys});
    EXPECT_GT(result["workload_scale"]["hottest_key_share"].get<double>(), 0.005);
  }
}

TEST(TraceRun, TheSameTraceGivesTheSameResult) {
  const RunConfig config = TraceRun("sherman");
  nlohmann::json first = RunBenchmark(config, nullptr).result;
  nlohmann::json second = RunBenchmark(config, nullptr).result;
  first.erase("wall_clock");
  second.erase("wall_clock");
  EXPECT_EQ(first, second);
}

}  // namespace
}  // namespace dmbench::driver
