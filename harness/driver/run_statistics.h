// What a run measured, per operation type: the figures of the Sherman paper
// (throughput, latency percentiles, round trips per operation, write sizes,
// retries, handovers) as histograms, plus verb totals. Each client keeps its
// own and they are merged after the run, so nothing is shared while it runs.
#pragma once

#include <array>
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "harness/rdma/op_stats.h"
#include "harness/stats/log_linear_histogram.h"
#include "indexes/common/index_op_stats.h"
#include "workloads/workload_spec.h"

namespace dmbench::driver {

struct OperationStatistics {
  uint64_t count = 0;
  LogLinearHistogram latency_ns;
  // Open loop only: latency from each operation's intended start (its
  // arrival), which includes the time it waited behind the client's earlier
  // operations; empty in a closed-loop run. It also holds the censored
  // arrivals, each with how long it had waited when the window ended.
  LogLinearHistogram intended_latency_ns;
  // Open loop only: arrivals due before the window's end that had not
  // completed by then (past capacity: the backlog, and what was in flight).
  // How long each had waited is a lower bound on its latency, so while there
  // are any, intended_latency_ns's percentiles are lower bounds too. They are
  // in no other figure: not in `count`, throughput or latency_ns.
  uint64_t censored_arrivals = 0;
  LogLinearHistogram round_trips;
  LogLinearHistogram write_bytes;  // node data written back (write operations)
  LogLinearHistogram read_retries;
  LogLinearHistogram lock_retries;
  LogLinearHistogram handovers;
  rdma::OpStats verbs;          // totals over the operations
  indexes::IndexOpStats index;  // totals over the operations

  // `intended_latency`: 0 in a closed-loop run (nothing recorded).
  void Record(uint64_t latency, uint64_t intended_latency, const rdma::OpStats& op_verbs,
              const indexes::IndexOpStats& op_index, bool is_write);
  // An arrival not completed by the window's end, after waiting `waited_ns` (> 0).
  void RecordCensored(uint64_t waited_ns);
  void Merge(const OperationStatistics& other);
  nlohmann::json ToJson(double measured_seconds) const;
};

constexpr size_t kOpTypes = 5;  // workloads::OpType values

class RunStatistics {
 public:
  void Record(workloads::OpType type, uint64_t latency, uint64_t intended_latency,
              const rdma::OpStats& verbs, const indexes::IndexOpStats& index);
  void RecordCensored(workloads::OpType type, uint64_t waited_ns) {
    by_type_[static_cast<size_t>(type)].RecordCensored(waited_ns);
  }
  void Merge(const RunStatistics& other);

  // All operation types merged.
  OperationStatistics overall() const;
  const OperationStatistics& of(workloads::OpType type) const {
    return by_type_[static_cast<size_t>(type)];
  }
  // {"overall": ..., "by_op": {"insert": ..., ...}} (only op types that ran
  // or were censored).
  nlohmann::json ToJson(double measured_seconds) const;
  // Rebuilds what ToJson wrote (the "operations" object of a result), so the
  // results of separate compute-server processes merge as if one process had
  // recorded them all. Only "by_op" is read; "overall" is derived from it.
  // Exact except for histogram sums: JSON keeps a mean as a double, so the
  // rebuilt sum is mean * count rounded, and means derived from it may differ
  // in their last bits. Throws ConfigError naming the field path
  // ("operations.by_op.insert.latency_us.min") of a missing field, a value of
  // the wrong type or range, an unknown op name or inconsistent counts.
  static RunStatistics FromJson(const nlohmann::json& operations);

 private:
  std::array<OperationStatistics, kOpTypes> by_type_;
};

// A histogram as JSON: count, mean, min, max, percentiles and its buckets.
nlohmann::json HistogramJson(const LogLinearHistogram& histogram, double scale = 1.0);

}  // namespace dmbench::driver
