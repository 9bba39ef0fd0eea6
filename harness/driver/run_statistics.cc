#include "harness/driver/run_statistics.h"

namespace dmbench::driver {

namespace {

bool IsWrite(workloads::OpType type) {
  return type == workloads::OpType::kInsert || type == workloads::OpType::kUpdate ||
         type == workloads::OpType::kDelete;
}

nlohmann::json VerbsJson(const rdma::OpStats& verbs) {
  return {{"round_trips", verbs.round_trips},
          {"reads", verbs.reads},
          {"writes", verbs.writes},
          {"compare_and_swaps", verbs.compare_and_swaps},
          {"failed_compare_and_swaps", verbs.failed_compare_and_swaps},
          {"fetch_and_adds", verbs.fetch_and_adds},
          {"bytes_read", verbs.bytes_read},
          {"bytes_written", verbs.bytes_written}};
}

nlohmann::json PerOperation(const rdma::OpStats& verbs, uint64_t count) {
  const double n = count > 0 ? static_cast<double>(count) : 1.0;
  return {{"round_trips", verbs.round_trips / n}, {"reads", verbs.reads / n},
          {"writes", verbs.writes / n},           {"atomics", verbs.atomics() / n},
          {"bytes_read", verbs.bytes_read / n},   {"bytes_written", verbs.bytes_written / n}};
}

nlohmann::json IndexJson(const indexes::IndexOpStats& index) {
  const uint64_t lookups = index.cache_hits + index.cache_misses;
  return {{"cache_hits", index.cache_hits},
          {"cache_misses", index.cache_misses},
          {"cache_hit_ratio", lookups > 0 ? static_cast<double>(index.cache_hits) / lookups : 0.0},
          {"splits", index.splits},
          {"handovers", index.handovers},
          {"read_retries", index.read_retries},
          {"slow_read_retries", index.slow_read_retries},
          {"lock_retries", index.lock_retries},
          {"wrong_turns", index.wrong_turns},
          {"sibling_chases", index.sibling_chases},
          {"torn_entries_returned", index.torn_entries_returned},
          {"write_back_bytes", index.write_back_bytes}};
}

}  // namespace

nlohmann::json HistogramJson(const LogLinearHistogram& histogram, double scale) {
  nlohmann::json buckets = nlohmann::json::array();
  for (const auto& bucket : histogram.Buckets()) {
    buckets.push_back({bucket.low * scale, bucket.high * scale, bucket.count});
  }
  return {{"count", histogram.count()},
          {"mean", histogram.mean() * scale},
          {"min", histogram.min() * scale},
          {"max", histogram.max() * scale},
          {"p50", histogram.Percentile(50) * scale},
          {"p90", histogram.Percentile(90) * scale},
          {"p99", histogram.Percentile(99) * scale},
          {"p999", histogram.Percentile(99.9) * scale},
          {"buckets", buckets}};
}

void OperationStatistics::Record(uint64_t latency, const rdma::OpStats& op_verbs,
                                 const indexes::IndexOpStats& op_index, bool is_write) {
  ++count;
  latency_ns.Record(latency);
  round_trips.Record(op_verbs.round_trips);
  if (is_write) write_bytes.Record(op_index.write_back_bytes);
  read_retries.Record(op_index.read_retries + op_index.slow_read_retries);
  lock_retries.Record(op_index.lock_retries);
  handovers.Record(op_index.handovers);
  verbs += op_verbs;
  index += op_index;
}

void OperationStatistics::Merge(const OperationStatistics& other) {
  count += other.count;
  latency_ns.Merge(other.latency_ns);
  round_trips.Merge(other.round_trips);
  write_bytes.Merge(other.write_bytes);
  read_retries.Merge(other.read_retries);
  lock_retries.Merge(other.lock_retries);
  handovers.Merge(other.handovers);
  verbs += other.verbs;
  index += other.index;
}

nlohmann::json OperationStatistics::ToJson(double measured_seconds) const {
  nlohmann::json json = {
      {"count", count},
      {"throughput_mops", measured_seconds > 0 ? count / measured_seconds / 1e6 : 0.0},
      {"latency_us", HistogramJson(latency_ns, 1e-3)},
      {"round_trips", HistogramJson(round_trips)},
      {"read_retries", HistogramJson(read_retries)},
      {"lock_retries", HistogramJson(lock_retries)},
      {"handovers", HistogramJson(handovers)},
      {"verbs", VerbsJson(verbs)},
      {"verbs_per_op", PerOperation(verbs, count)},
      {"index", IndexJson(index)}};
  if (write_bytes.count() > 0) json["write_bytes"] = HistogramJson(write_bytes);
  return json;
}

void RunStatistics::Record(workloads::OpType type, uint64_t latency, const rdma::OpStats& verbs,
                           const indexes::IndexOpStats& index) {
  by_type_[static_cast<size_t>(type)].Record(latency, verbs, index, IsWrite(type));
}

OperationStatistics RunStatistics::overall() const {
  // Derived when asked: recording each operation once keeps the hot path short.
  OperationStatistics all;
  for (const OperationStatistics& type : by_type_) all.Merge(type);
  return all;
}

void RunStatistics::Merge(const RunStatistics& other) {
  for (size_t i = 0; i < kOpTypes; ++i) by_type_[i].Merge(other.by_type_[i]);
}

nlohmann::json RunStatistics::ToJson(double measured_seconds) const {
  nlohmann::json by_op = nlohmann::json::object();
  for (size_t i = 0; i < kOpTypes; ++i) {
    if (by_type_[i].count == 0) continue;
    by_op[workloads::OpTypeName(static_cast<workloads::OpType>(i))] =
        by_type_[i].ToJson(measured_seconds);
  }
  return {{"overall", overall().ToJson(measured_seconds)}, {"by_op", by_op}};
}

}  // namespace dmbench::driver
