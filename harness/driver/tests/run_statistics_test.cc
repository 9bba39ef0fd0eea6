// RunStatistics::FromJson: the statistics of separate processes, saved as
// JSON and rebuilt, must merge to what one process recording everything
// would have written.
#include "harness/driver/run_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/tests/driver_test_support.h"
#include "harness/rdma/errors.h"
#include "harness/util/random.h"

namespace dmbench::driver {
namespace {

using workloads::OpType;

constexpr double kMeasuredSeconds = 0.25;

// Every leaf must be equal, with its JSON type, except means: JSON keeps a
// mean as a double, so a rebuilt sum reproduces it only up to rounding.
void ExpectSameJson(const nlohmann::json& actual, const nlohmann::json& expected,
                    const std::string& path = "operations") {
  if (expected.is_object() && actual.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      if (!actual.contains(key)) {
        ADD_FAILURE() << path << "." << key << " is missing";
        continue;
      }
      ExpectSameJson(actual[key], value, path + "." + key);
    }
    for (const auto& [key, value] : actual.items()) {
      if (!expected.contains(key)) ADD_FAILURE() << path << "." << key << " is extra";
    }
    return;
  }
  if (path.ends_with(".mean") && expected.is_number() && actual.is_number()) {
    const double want = expected.get<double>();
    EXPECT_NEAR(actual.get<double>(), want, 1e-9 * std::abs(want)) << path;
    return;
  }
  EXPECT_EQ(actual.dump(), expected.dump()) << path;
}

// Varied values for every recorded field: latencies from ns to ms, round
// trips, write bytes, retries, verb and index counters; `open_loop` adds
// intended-start latencies, each above the actual one, and censored arrivals
// (one in ten, and every delete: a type none of which completed).
RunStatistics Recorded(uint64_t seed, int operations, bool open_loop = false) {
  Random random(seed);
  RunStatistics statistics;
  const OpType types[] = {OpType::kInsert, OpType::kUpdate, OpType::kLookup, OpType::kDelete,
                          OpType::kRange};
  for (int i = 0; i < operations; ++i) {
    const OpType type = types[random.NextU64() % (seed % 2 == 0 ? 5 : 4)];
    const auto latency = static_cast<uint64_t>(std::pow(10.0, 7 * random.NextDouble()));
    rdma::OpStats verbs;
    verbs.round_trips = 1 + random.NextU64() % 12;
    verbs.reads = random.NextU64() % 10;
    verbs.writes = random.NextU64() % 3;
    verbs.compare_and_swaps = random.NextU64() % 4;
    verbs.failed_compare_and_swaps = random.NextU64() % 2;
    verbs.fetch_and_adds = random.NextU64() % 2;
    verbs.bytes_read = random.NextU64() % 10000;
    verbs.bytes_written = random.NextU64() % 3000;
    indexes::IndexOpStats index;
    index.read_retries = (random.NextU64() % 3);
    index.slow_read_retries = (random.NextU64() % 2);
    index.lock_retries = (random.NextU64() % 200);
    index.handovers = (random.NextU64() % 2);
    index.splits = (random.NextU64() % 2);
    index.cache_hits = (random.NextU64() % 2);
    index.cache_misses = (random.NextU64() % 2);
    index.wrong_turns = (random.NextU64() % 2);
    index.sibling_chases = (random.NextU64() % 2);
    index.torn_entries_returned = (random.NextU64() % 2);
    index.write_back_bytes = 64 + random.NextU64() % 4096;
    const uint64_t intended = open_loop ? latency + 1 + random.NextU64() % 100000 : 0;
    if (open_loop && (i % 10 == 0 || type == OpType::kDelete)) {
      statistics.RecordCensored(type, intended);
      continue;
    }
    statistics.Record(type, latency, intended, verbs, index);
  }
  return statistics;
}

TEST(RunStatisticsFromJson, RoundTripsEveryField) {
  const RunStatistics original = Recorded(2, 3000);
  const nlohmann::json json = original.ToJson(kMeasuredSeconds);
  ASSERT_EQ(json["by_op"].size(), kOpTypes);
  ASSERT_TRUE(json["by_op"]["insert"].contains("write_bytes"));
  ExpectSameJson(RunStatistics::FromJson(json).ToJson(kMeasuredSeconds), json);
}

TEST(RunStatisticsFromJson, RebuiltStatisticsMergeLikeTheOriginals) {
  RunStatistics first = Recorded(3, 2000);  // no range queries
  const RunStatistics second = Recorded(4, 500);
  RunStatistics rebuilt = RunStatistics::FromJson(first.ToJson(kMeasuredSeconds));
  rebuilt.Merge(RunStatistics::FromJson(second.ToJson(kMeasuredSeconds)));
  first.Merge(second);
  ExpectSameJson(rebuilt.ToJson(kMeasuredSeconds), first.ToJson(kMeasuredSeconds));
}

// Index counters sum over a run, and merge sums them over servers: totals
// past 2^32 (minutes of simulated lock spinning) neither wrap nor are refused.
TEST(RunStatisticsFromJson, IndexTotalsPast32BitsRoundTripAndMerge) {
  constexpr uint64_t kLarge = uint64_t{3} << 31;
  RunStatistics statistics;
  indexes::IndexOpStats index;
  index.lock_retries = kLarge;
  index.cache_hits = kLarge;
  statistics.Record(OpType::kInsert, 1000, 0, rdma::OpStats{}, index);
  RunStatistics merged = RunStatistics::FromJson(statistics.ToJson(kMeasuredSeconds));
  merged.Merge(statistics);
  const nlohmann::json totals = merged.ToJson(kMeasuredSeconds)["overall"]["index"];
  EXPECT_EQ(totals["lock_retries"].get<uint64_t>(), 2 * kLarge);
  EXPECT_EQ(totals["cache_hits"].get<uint64_t>(), 2 * kLarge);
}

TEST(RunStatisticsFromJson, RoundTripsARealRun) {
  const nlohmann::json result =
      RunBenchmark(test_support::SmallRun("sherman", "write-intensive"), nullptr).result;
  const double seconds = result["measured_seconds"].get<double>();
  ExpectSameJson(RunStatistics::FromJson(result["operations"]).ToJson(seconds),
                 result["operations"]);
}

TEST(RunStatisticsFromJson, EmptyStatisticsRoundTrip) {
  const nlohmann::json json = RunStatistics().ToJson(kMeasuredSeconds);
  EXPECT_EQ(RunStatistics::FromJson(json).ToJson(kMeasuredSeconds), json);
}

void ExpectConfigError(const nlohmann::json& operations, const std::string& named) {
  try {
    RunStatistics::FromJson(operations);
    ADD_FAILURE() << "no ConfigError naming " << named;
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find(named), std::string::npos)
        << error.what() << " does not name " << named;
  }
}

TEST(RunStatisticsFromJson, RoundTripsOpenLoopIntendedLatencies) {
  const nlohmann::json json = Recorded(6, 3000, /*open_loop=*/true).ToJson(kMeasuredSeconds);
  ASSERT_TRUE(json["overall"].contains("intended_latency_us"));
  ASSERT_TRUE(json["by_op"]["lookup"].contains("intended_latency_us"));
  ASSERT_EQ(json["by_op"]["delete"]["count"], 0u) << "censored only, and still written";
  ASSERT_GT(json["by_op"]["delete"]["censored_arrivals"].get<uint64_t>(), 0u);
  const uint64_t censored = json["overall"]["censored_arrivals"].get<uint64_t>();
  EXPECT_EQ(json["overall"]["intended_latency_us"]["count"].get<uint64_t>(),
            json["overall"]["count"].get<uint64_t>() + censored);
  ExpectSameJson(RunStatistics::FromJson(json).ToJson(kMeasuredSeconds), json);
  RunStatistics merged = RunStatistics::FromJson(json);
  merged.Merge(RunStatistics::FromJson(json));
  EXPECT_EQ(merged.overall().censored_arrivals, 2 * censored);
  nlohmann::json bad = json;
  bad["by_op"]["lookup"]["intended_latency_us"]["count"] =
      json["by_op"]["lookup"]["intended_latency_us"]["count"].get<uint64_t>() + 1;
  ExpectConfigError(bad, "operations.by_op.lookup.intended_latency_us.count");
  bad = json;
  bad["by_op"]["lookup"]["censored_arrivals"] =
      json["by_op"]["lookup"]["censored_arrivals"].get<uint64_t>() + 1;
  ExpectConfigError(bad, "operations.by_op.lookup.censored_arrivals");
}

TEST(RunStatisticsFromJson, MalformedInputIsNamed) {
  const nlohmann::json good = Recorded(5, 200).ToJson(kMeasuredSeconds);
  ASSERT_TRUE(good["by_op"].contains("insert"));
  ASSERT_TRUE(good["by_op"].contains("lookup"));

  nlohmann::json bad = good;
  bad.erase("by_op");
  ExpectConfigError(bad, "operations.by_op");
  bad = good;
  bad["by_op"]["insert"]["latency_us"].erase("min");
  ExpectConfigError(bad, "operations.by_op.insert.latency_us.min");
  bad = good;
  bad["by_op"]["lookup"]["verbs"]["reads"] = "many";
  ExpectConfigError(bad, "operations.by_op.lookup.verbs.reads");
  bad = good;
  bad["by_op"]["lookup"]["index"]["splits"] = -1;
  ExpectConfigError(bad, "operations.by_op.lookup.index.splits");
  bad = good;
  bad["by_op"]["upsert"] = good["by_op"]["insert"];
  ExpectConfigError(bad, "operations.by_op.upsert: unknown operation type (allowed: insert,");
  bad = good;
  bad["by_op"]["insert"]["round_trips"]["buckets"][0] = {1, 2};
  ExpectConfigError(bad, "operations.by_op.insert.round_trips.buckets[0]");
  bad = good;
  bad["by_op"]["insert"]["latency_us"]["count"] =
      good["by_op"]["insert"]["latency_us"]["count"].get<uint64_t>() + 1;
  ExpectConfigError(bad, "operations.by_op.insert.latency_us.count");
  bad = good;
  bad["by_op"]["insert"]["latency_us"]["min"] = 1e9;
  ExpectConfigError(bad, "operations.by_op.insert.latency_us.min");
  bad = good;
  bad["by_op"]["insert"]["latency_us"]["max"] = 1e9;
  ExpectConfigError(bad, "operations.by_op.insert.latency_us.buckets: min ");
  bad = good;
  bad["by_op"]["insert"]["count"] = good["by_op"]["insert"]["count"].get<uint64_t>() + 1;
  ExpectConfigError(bad, "operations.by_op.insert.latency_us.count");
  bad = good;
  bad["by_op"]["insert"]["handovers"]["mean"] = 1e6;
  ExpectConfigError(bad, "operations.by_op.insert.handovers.mean");
}

}  // namespace
}  // namespace dmbench::driver
