#include "harness/driver/run_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"

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
  nlohmann::json json;
  for (const indexes::IndexOpCounter& counter : indexes::IndexOpStats::Counters()) {
    json[counter.name] = index.*counter.member;
  }
  const uint64_t lookups = index.cache_hits + index.cache_misses;
  json["cache_hit_ratio"] =
      lookups > 0 ? static_cast<double>(index.cache_hits) / static_cast<double>(lookups) : 0.0;
  return json;
}

uint64_t RequiredUnsigned(JsonObjectReader& reader, const std::string& key,
                          uint64_t max = std::numeric_limits<uint64_t>::max()) {
  if (!reader.Has(key)) {
    throw ConfigError(reader.FieldPath(key) + ": is required: an integer in [0, " +
                      std::to_string(max) + "]");
  }
  return reader.Unsigned(key, 0, 0, max);
}

// A value HistogramJson wrote multiplied by `scale`, back in its own unit.
// The highest bucket ends at 2^64 - 1, which a double rounds up to 2^64: a
// value up to a little above 2^64 saturates rather than being rejected.
uint64_t Unscaled(double scaled, double scale, const std::string& path) {
  constexpr long double kTwoTo64 = 18446744073709551616.0L;
  const long double value = std::round(static_cast<long double>(scaled) / scale);
  if (!(value >= 0) || value > kTwoTo64 * (1 + 1e-9L)) {
    throw ConfigError(path + ": must be a non-negative number of at most 2^64 units, got " +
                      std::to_string(scaled));
  }
  return value >= kTwoTo64 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(value);
}

std::vector<LogLinearHistogram::Bucket> BucketsFromJson(JsonObjectReader& reader, double scale) {
  const nlohmann::json& list = reader.Raw("buckets");
  if (!list.is_array()) {
    throw ConfigError(reader.FieldPath("buckets") + ": must be an array of [low, high, count]");
  }
  std::vector<LogLinearHistogram::Bucket> buckets;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = reader.FieldPath("buckets") + "[" + std::to_string(i) + "]";
    const nlohmann::json& bucket = list[i];
    if (!bucket.is_array() || bucket.size() != 3 || !bucket[0].is_number() ||
        !bucket[1].is_number() || !bucket[2].is_number_unsigned()) {
      throw ConfigError(path +
                        ": must be [low, high, count] with a non-negative integer count, got " +
                        Printable(bucket.dump(), 57));
    }
    buckets.push_back({Unscaled(bucket[0].get<double>(), scale, path + "[0]"),
                       Unscaled(bucket[1].get<double>(), scale, path + "[1]"),
                       bucket[2].get<uint64_t>()});
  }
  return buckets;
}

LogLinearHistogram HistogramFromJson(JsonObjectReader reader, double scale) {
  constexpr double kAnyNumber = std::numeric_limits<double>::max();
  const uint64_t count = RequiredUnsigned(reader, "count");
  const double mean = reader.RequiredNumber("mean", 0, kAnyNumber);
  const uint64_t min =
      Unscaled(reader.RequiredNumber("min", 0, kAnyNumber), scale, reader.FieldPath("min"));
  const uint64_t max =
      Unscaled(reader.RequiredNumber("max", 0, kAnyNumber), scale, reader.FieldPath("max"));
  if (min > max) {
    throw ConfigError(reader.FieldPath("min") + ": must not exceed " + reader.FieldPath("max"));
  }
  const std::vector<LogLinearHistogram::Bucket> buckets = BucketsFromJson(reader, scale);
  // JSON keeps only the mean, a double, so the sum comes back rounded. The
  // true sum lies in [min * count, max * count]; a mean far outside [min, max]
  // is malformed, and clamping keeps rounding from taking it outside.
  const long double low = static_cast<long double>(min) * count;
  const long double high = static_cast<long double>(max) * count;
  const long double sum = std::round(static_cast<long double>(mean) / scale * count);
  if (sum < low * (1 - 1e-9L) - 1 || sum > high * (1 + 1e-9L) + 1) {
    throw ConfigError(reader.FieldPath("mean") + ": must lie in [min, max], got " +
                      std::to_string(mean));
  }
  LogLinearHistogram histogram;
  try {
    histogram = LogLinearHistogram::FromBuckets(
        buckets, min, max, static_cast<unsigned __int128>(std::clamp(sum, low, high)));
  } catch (const std::invalid_argument& error) {
    throw ConfigError(reader.FieldPath("buckets") + ": " + error.what());
  }
  if (histogram.count() != count) {
    throw ConfigError(reader.FieldPath("count") + ": is " + std::to_string(count) +
                      " but the buckets hold " + std::to_string(histogram.count()));
  }
  return histogram;
}

rdma::OpStats VerbsFromJson(JsonObjectReader reader) {
  rdma::OpStats verbs;
  verbs.round_trips = RequiredUnsigned(reader, "round_trips");
  verbs.reads = RequiredUnsigned(reader, "reads");
  verbs.writes = RequiredUnsigned(reader, "writes");
  verbs.compare_and_swaps = RequiredUnsigned(reader, "compare_and_swaps");
  verbs.failed_compare_and_swaps = RequiredUnsigned(reader, "failed_compare_and_swaps");
  verbs.fetch_and_adds = RequiredUnsigned(reader, "fetch_and_adds");
  verbs.bytes_read = RequiredUnsigned(reader, "bytes_read");
  verbs.bytes_written = RequiredUnsigned(reader, "bytes_written");
  return verbs;
}

indexes::IndexOpStats IndexFromJson(JsonObjectReader reader) {
  indexes::IndexOpStats index;
  for (const indexes::IndexOpCounter& field : indexes::IndexOpStats::Counters()) {
    index.*field.member = RequiredUnsigned(reader, field.name);
  }
  return index;
}

OperationStatistics OperationFromJson(JsonObjectReader reader) {
  OperationStatistics statistics;
  statistics.count = RequiredUnsigned(reader, "count");
  statistics.latency_ns = HistogramFromJson(reader.Object("latency_us"), 1e-3);
  statistics.round_trips = HistogramFromJson(reader.Object("round_trips"), 1);
  statistics.read_retries = HistogramFromJson(reader.Object("read_retries"), 1);
  statistics.lock_retries = HistogramFromJson(reader.Object("lock_retries"), 1);
  statistics.handovers = HistogramFromJson(reader.Object("handovers"), 1);
  // Written by open-loop runs only.
  const bool open_loop = reader.Has("intended_latency_us");
  if (open_loop) {
    statistics.intended_latency_ns = HistogramFromJson(reader.Object("intended_latency_us"), 1e-3);
    // Absent from results written before arrivals were censored: none were.
    statistics.censored_arrivals =
        reader.Unsigned("censored_arrivals", 0, 0, std::numeric_limits<uint64_t>::max());
  }
  // Written only by write operations, and only when some ran.
  if (reader.Has("write_bytes")) {
    statistics.write_bytes = HistogramFromJson(reader.Object("write_bytes"), 1);
  }
  statistics.verbs = VerbsFromJson(reader.Object("verbs"));
  statistics.index = IndexFromJson(reader.Object("index"));
  // Every operation records one value into each of these.
  std::vector<std::pair<const char*, const LogLinearHistogram*>> per_operation = {
      {"latency_us", &statistics.latency_ns},
      {"round_trips", &statistics.round_trips},
      {"read_retries", &statistics.read_retries},
      {"lock_retries", &statistics.lock_retries},
      {"handovers", &statistics.handovers}};
  for (const auto& [key, histogram] : per_operation) {
    if (histogram->count() == statistics.count) continue;
    throw ConfigError(reader.FieldPath(key) + ".count: is " + std::to_string(histogram->count()) +
                      " but " + reader.FieldPath("count") + " is " +
                      std::to_string(statistics.count));
  }
  if (open_loop &&
      statistics.intended_latency_ns.count() != statistics.count + statistics.censored_arrivals) {
    throw ConfigError(reader.FieldPath("intended_latency_us") + ".count: is " +
                      std::to_string(statistics.intended_latency_ns.count()) + " but " +
                      reader.FieldPath("count") + " + " + reader.FieldPath("censored_arrivals") +
                      " is " + std::to_string(statistics.count + statistics.censored_arrivals));
  }
  return statistics;
}

size_t OpTypeIndex(const std::string& name, const std::string& path) {
  std::string allowed;
  for (size_t i = 0; i < kOpTypes; ++i) {
    const std::string type_name = workloads::OpTypeName(static_cast<workloads::OpType>(i));
    if (type_name == name) return i;
    allowed += (allowed.empty() ? "" : ", ") + type_name;
  }
  throw ConfigError(Printable(path, 120) + ": unknown operation type (allowed: " + allowed + ")");
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

void OperationStatistics::Record(uint64_t latency, uint64_t intended_latency,
                                 const rdma::OpStats& op_verbs,
                                 const indexes::IndexOpStats& op_index, bool is_write) {
  ++count;
  latency_ns.Record(latency);
  if (intended_latency > 0) intended_latency_ns.Record(intended_latency);
  round_trips.Record(op_verbs.round_trips);
  if (is_write) write_bytes.Record(op_index.write_back_bytes);
  read_retries.Record(op_index.read_retries + op_index.slow_read_retries);
  lock_retries.Record(op_index.lock_retries);
  handovers.Record(op_index.handovers);
  verbs += op_verbs;
  index += op_index;
}

void OperationStatistics::RecordCensored(uint64_t waited_ns) {
  ++censored_arrivals;
  intended_latency_ns.Record(waited_ns);
}

void OperationStatistics::Merge(const OperationStatistics& other) {
  count += other.count;
  censored_arrivals += other.censored_arrivals;
  latency_ns.Merge(other.latency_ns);
  intended_latency_ns.Merge(other.intended_latency_ns);
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
  if (intended_latency_ns.count() > 0) {
    json["intended_latency_us"] = HistogramJson(intended_latency_ns, 1e-3);
    json["censored_arrivals"] = censored_arrivals;
  }
  return json;
}

void RunStatistics::Record(workloads::OpType type, uint64_t latency, uint64_t intended_latency,
                           const rdma::OpStats& verbs, const indexes::IndexOpStats& index) {
  by_type_[static_cast<size_t>(type)].Record(latency, intended_latency, verbs, index,
                                             IsWrite(type));
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
    if (by_type_[i].count == 0 && by_type_[i].censored_arrivals == 0) continue;
    by_op[workloads::OpTypeName(static_cast<workloads::OpType>(i))] =
        by_type_[i].ToJson(measured_seconds);
  }
  return {{"overall", overall().ToJson(measured_seconds)}, {"by_op", by_op}};
}

RunStatistics RunStatistics::FromJson(const nlohmann::json& operations) {
  JsonObjectReader root(operations, "operations");
  JsonObjectReader by_op = root.Object("by_op");
  RunStatistics statistics;
  for (const auto& [name, entry] : root.Raw("by_op").items()) {
    const size_t type = OpTypeIndex(name, by_op.FieldPath(name));
    statistics.by_type_[type] = OperationFromJson(by_op.Object(name));
  }
  return statistics;
}

}  // namespace dmbench::driver
