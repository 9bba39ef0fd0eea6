// Runs one configured benchmark end to end: builds the cluster and the
// index, bulkloads, runs the workload on every client through a warm-up and
// a measured window, optionally validates every operation, and returns the
// result document (results/SCHEMA.md).
#pragma once

#include <functional>
#include <memory>
#include <ostream>

#include <nlohmann/json.hpp>

#include "harness/driver/run_config.h"
#include "indexes/common/consistency_checker.h"
#include "indexes/index.h"

namespace dmbench::driver {

// The current version of results/SCHEMA.md.
constexpr int kResultSchemaVersion = 1;

struct BenchmarkOutcome {
  nlohmann::json result;
  bool verified_ok = true;  // false when --verify found violations
  // With --verify on one compute server of several: this process's share of
  // the history, for `dmbench merge` to check together with the others'
  // (times relative to the cluster-wide start).
  std::shared_ptr<indexes::ConsistencyChecker> history;
};

// Builds the index a run measures, for the cluster it runs on.
using IndexMaker = std::function<std::unique_ptr<indexes::Index>(const RunConfig& config,
                                                                 const rdma::ClusterShape& shape)>;

// The index of the config's index section (indexes/index_factory.h).
std::unique_ptr<indexes::Index> MakeConfiguredIndex(const RunConfig& config,
                                                    const rdma::ClusterShape& shape);

// Told when the run that holds the warm-up and the measured window starts and
// when it has ended, on the thread that calls RunBenchmark: a profiler can
// sample the simulation alone, without the set-up and bulkload before it
// (ae/bench-sim.sh --profile). What it does changes no result.
class MeasuredRunObserver {
 public:
  virtual ~MeasuredRunObserver() = default;
  virtual void MeasuredRunStarts() = 0;
  virtual void MeasuredRunEnded() = 0;
};

// `progress` (may be null) gets a line per tenth of the measured window.
// `make_index` lets a test run an index of its own through the whole driver.
// `observer` (may be null) must outlive the call.
BenchmarkOutcome RunBenchmark(const RunConfig& config, std::ostream* progress,
                              const IndexMaker& make_index = MakeConfiguredIndex,
                              MeasuredRunObserver* observer = nullptr);

// The result's "verify" section for a checker's report.
nlohmann::json VerifyJson(const indexes::ConsistencyReport& report);

// A readable table of a result: per op type, count, Mops, latency, round trips.
std::string SummaryTable(const nlohmann::json& result);

}  // namespace dmbench::driver
