// ClientWorkload: each mix's operations come in its proportions, over the keys its definition
// names, in a stream determined by (seed, client).
#include "workloads/client_workload.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "workloads/key_space.h"
#include "workloads/workload_spec.h"

namespace dmbench::workloads {
namespace {

constexpr uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();

WorkloadSpec Mix(const std::string& mix, uint64_t keys = 100'000) {
  WorkloadSpec spec;
  spec.SetMix(mix);
  spec.keys = keys;
  return spec;
}

std::array<double, 5> Frequencies(ClientWorkload& client, int ops) {
  std::array<double, 5> counts{};
  for (int i = 0; i < ops; ++i) counts[static_cast<size_t>(client.Next().type)] += 1.0;
  for (double& count : counts) count /= ops;
  return counts;
}

// 1% absolute is at least 6 standard deviations of a frequency over 100k operations.
void ExpectMixFrequencies(const WorkloadSpec& spec) {
  SCOPED_TRACE(spec.mix);
  KeySpace keys(spec, 1);
  ClientWorkload client(spec, keys, 1, 0, 4);
  const std::array<double, 5> observed = Frequencies(client, 100'000);
  EXPECT_NEAR(observed[static_cast<size_t>(OpType::kInsert)], spec.insert, 0.01);
  EXPECT_NEAR(observed[static_cast<size_t>(OpType::kUpdate)], spec.update, 0.01);
  EXPECT_NEAR(observed[static_cast<size_t>(OpType::kLookup)], spec.lookup, 0.01);
  EXPECT_NEAR(observed[static_cast<size_t>(OpType::kDelete)], spec.remove, 0.01);
  EXPECT_NEAR(observed[static_cast<size_t>(OpType::kRange)], spec.range, 0.01);
}

TEST(ClientWorkloadTest, OperationFrequenciesMatchTheMix) {
  for (const std::string& mix : WorkloadSpec::MixNames()) {
    if (mix == "custom" || mix == "range-write") continue;
    ExpectMixFrequencies(Mix(mix));
  }
  WorkloadSpec custom = Mix("custom");
  custom.insert = 0.1;
  custom.update = 0.2;
  custom.lookup = 0.3;
  custom.remove = 0.15;
  custom.range = 0.25;
  ExpectMixFrequencies(custom);
}

TEST(ClientWorkloadTest, RangeWriteSplitsClientsIntoInsertersAndRangers) {
  const WorkloadSpec spec = Mix("range-write");
  KeySpace keys(spec, 1);
  for (uint32_t index = 0; index < 4; ++index) {
    ClientWorkload client(spec, keys, 1, index, 4);
    const OpType only = index % 2 == 0 ? OpType::kInsert : OpType::kRange;
    for (int i = 0; i < 10'000; ++i) ASSERT_EQ(client.Next().type, only) << "client " << index;
  }
  ClientWorkload alone(spec, keys, 1, 0, 1);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(alone.Next().type, i % 2 == 0 ? OpType::kInsert : OpType::kRange) << i;
  }
}

TEST(ClientWorkloadTest, PaperRangesCoverRangeSizeKeys) {
  WorkloadSpec spec = Mix("range-only");
  spec.range_size = 1000;
  KeySpace keys(spec, 1);
  ClientWorkload client(spec, keys, 1, 0, 1);
  for (int i = 0; i < 10'000; ++i) {
    const Operation op = client.Next();
    ASSERT_GE(op.key, 1u);
    ASSERT_LE(op.key, spec.keys);
    ASSERT_EQ(op.range_end, op.key + 1000);
    ASSERT_EQ(op.limit, 0u);
  }
}

TEST(ClientWorkloadTest, SameSeedAndClientGiveTheSameStream) {
  for (const char* mix : {"write-intensive", "ycsb-a", "ycsb-e", "range-write"}) {
    const WorkloadSpec spec = Mix(mix);
    KeySpace keys(spec, 1);
    ClientWorkload first(spec, keys, 42, 3, 8);
    ClientWorkload second(spec, keys, 42, 3, 8);
    ClientWorkload other_client(spec, keys, 42, 5, 8);
    ClientWorkload other_seed(spec, keys, 43, 3, 8);
    int same_as_other_client = 0;
    int same_as_other_seed = 0;
    for (int i = 0; i < 1000; ++i) {
      const Operation op = first.Next();
      const Operation again = second.Next();
      ASSERT_EQ(op.type, again.type) << mix << " op " << i;
      ASSERT_EQ(op.key, again.key) << mix << " op " << i;
      ASSERT_EQ(op.value, again.value);
      ASSERT_EQ(op.range_end, again.range_end);
      ASSERT_EQ(op.limit, again.limit);
      same_as_other_client += other_client.Next().key == op.key ? 1 : 0;
      same_as_other_seed += other_seed.Next().key == op.key ? 1 : 0;
    }
    // Skewed keys coincide now and then (the top key is drawn ~8% of the time), never mostly.
    EXPECT_LT(same_as_other_client, 200) << mix;
    EXPECT_LT(same_as_other_seed, 200) << mix;
  }
}

TEST(ClientWorkloadTest, ValuesAreUniqueNonzeroAndAboveBulkloadValues) {
  const WorkloadSpec spec = Mix("write-only");
  KeySpace keys(spec, 1);
  std::set<uint64_t> values;
  for (uint32_t index = 0; index < 3; ++index) {
    ClientWorkload client(spec, keys, 1, index, 3);
    for (int i = 0; i < 1000; ++i) {
      const uint64_t value = client.Next().value;
      ASSERT_GT(value, KeySpace::kMaxBulkloadValue);
      ASSERT_EQ(value >> ClientWorkload::kValueShift, index + 1u);
      ASSERT_TRUE(values.insert(value).second) << "value " << value << " repeated";
    }
  }
}

// Hot keys are bulkloaded no more often than cold ones, so about bulkload_fraction of the paper's
// inserts update an existing key. For one seed the share varies by about 0.037 around 0.8
// (whether the few top ranks are loaded dominates it), so 100k inserts are spread over 16 seeds
// (standard deviation 0.009). Loading the hottest ranks instead would give about 1.0.
TEST(ClientWorkloadTest, InsertsHitBulkloadedKeysAtTheBulkloadFraction) {
  constexpr int kSeeds = 16;
  constexpr int kOpsPerSeed = 100'000 / kSeeds;
  const WorkloadSpec spec = Mix("write-only");
  int loaded = 0;
  for (int seed = 0; seed < kSeeds; ++seed) {
    KeySpace keys(spec, seed);
    ClientWorkload client(spec, keys, seed, 0, 1);
    for (int i = 0; i < kOpsPerSeed; ++i) loaded += keys.Bulkloaded(client.Next().key) ? 1 : 0;
  }
  EXPECT_NEAR(loaded / static_cast<double>(kSeeds * kOpsPerSeed), 0.8, 0.05);
}

// For one seed, the share of inserts on loaded keys is exactly what the Zipfian over the mapped
// keys predicts (5 standard deviations of the share over 100k inserts).
TEST(ClientWorkloadTest, InsertsHitBulkloadedKeysAsTheirRanksPredict) {
  const WorkloadSpec spec = Mix("write-only");
  KeySpace keys(spec, 1);
  double expected = 0.0;
  for (uint64_t rank = 0; rank < spec.keys; ++rank) {
    if (keys.Bulkloaded(keys.KeyOfRank(rank)))
      expected += keys.zipfian()->SamplingProbability(rank);
  }
  ClientWorkload client(spec, keys, 1, 0, 1);
  constexpr int kOps = 100'000;
  int loaded = 0;
  for (int i = 0; i < kOps; ++i) loaded += keys.Bulkloaded(client.Next().key) ? 1 : 0;
  EXPECT_NEAR(static_cast<double>(loaded) / kOps, expected,
              5 * std::sqrt(expected * (1 - expected) / kOps));
}

// Rank 0 (the hottest) lands on KeyOfRank(0), with its Zipfian sampling probability; 5 standard
// deviations of the frequency over 100k draws.
TEST(ClientWorkloadTest, TopRankKeyAppearsWithItsZipfianProbability) {
  const WorkloadSpec spec = Mix("write-only");
  KeySpace keys(spec, 1);
  ClientWorkload client(spec, keys, 1, 0, 1);
  const uint64_t hottest = keys.KeyOfRank(0);
  constexpr int kOps = 100'000;
  int hits = 0;
  for (int i = 0; i < kOps; ++i) hits += client.Next().key == hottest ? 1 : 0;
  const double expected = keys.zipfian()->SamplingProbability(0);
  EXPECT_NEAR(static_cast<double>(hits) / kOps, expected,
              5 * std::sqrt(expected * (1 - expected) / kOps));
}

TEST(ClientWorkloadTest, UniformKeysAreSpreadEvenly) {
  WorkloadSpec spec = Mix("ycsb-c", 1000);
  spec.distribution = KeyDistribution::kUniform;
  KeySpace keys(spec, 1);
  ClientWorkload client(spec, keys, 1, 0, 1);
  std::vector<int> counts(1001);
  for (int i = 0; i < 100'000; ++i) ++counts[client.Next().key];
  EXPECT_EQ(counts[0], 0);
  // Expected 100 per key, standard deviation 10.
  for (uint64_t key = 1; key <= 1000; ++key) ASSERT_NEAR(counts[key], 100, 60) << key;
}

TEST(ClientWorkloadTest, YcsbUpdatesOnlyTouchBulkloadedKeys) {
  for (const double fraction : {0.8, 0.1}) {
    WorkloadSpec spec = Mix("ycsb-a");
    spec.bulkload_fraction = fraction;
    KeySpace keys(spec, 1);
    ClientWorkload client(spec, keys, 1, 0, 1);
    int updates = 0;
    int unloaded_reads = 0;
    for (int i = 0; i < 20'000; ++i) {
      const Operation op = client.Next();
      if (op.type == OpType::kUpdate) {
        ++updates;
        ASSERT_TRUE(keys.Bulkloaded(op.key)) << op.key;
      } else {
        unloaded_reads += keys.Bulkloaded(op.key) ? 0 : 1;
      }
    }
    EXPECT_GT(updates, 9000);
    EXPECT_GT(unloaded_reads, 0) << "reads draw from every key, loaded or not";
  }
}

TEST(ClientWorkloadTest, YcsbDInsertsNewKeysAndReadsTheLatest) {
  const WorkloadSpec spec = Mix("ycsb-d");
  KeySpace keys(spec, 1);
  ClientWorkload client(spec, keys, 1, 0, 1);
  uint64_t previous_insert = spec.keys;
  int reads = 0;
  int recent_reads = 0;
  for (int i = 0; i < 40'000; ++i) {
    const Operation op = client.Next();
    const uint64_t latest = keys.LatestKey();
    if (op.type == OpType::kInsert) {
      ASSERT_EQ(op.key, previous_insert + 1);
      previous_insert = op.key;
    } else {
      ASSERT_EQ(op.type, OpType::kLookup);
      ASSERT_GE(op.key, 1u);
      ASSERT_LE(op.key, latest);
      ++reads;
      // The newest 1% of the current keys.
      recent_reads += op.key > latest - latest / 100 ? 1 : 0;
    }
  }
  EXPECT_GT(previous_insert, spec.keys + 1500) << "about 2000 inserts expected";
  // Zipfian theta 0.99 gives the top 1% of 100k ranks about 60% of the draws.
  EXPECT_GT(static_cast<double>(recent_reads) / reads, 0.5);
}

TEST(ClientWorkloadTest, OnlyYcsbDDrawsDependOnOtherClients) {
  // ycsb-d's inserts claim keys from, and its reads look back from, the
  // KeySpace all clients share, so its operations must not be drawn ahead
  // of when they run (driver/lookahead_operations.h); every other mix's
  // draws are the client's own.
  for (const char* mix :
       {"read-intensive", "write-intensive", "ycsb-a", "ycsb-b", "ycsb-c", "ycsb-d", "ycsb-e"}) {
    const WorkloadSpec spec = Mix(mix);
    KeySpace keys(spec, 1);
    const ClientWorkload client(spec, keys, 1, 0, 1);
    EXPECT_EQ(client.DrawsAheadUnchanged(), std::string(mix) != "ycsb-d") << mix;
  }
}

TEST(ClientWorkloadTest, YcsbEScansFromAKeyWithUniformLimits) {
  WorkloadSpec spec = Mix("ycsb-e");
  spec.scan_max = 10;
  KeySpace keys(spec, 1);
  ClientWorkload client(spec, keys, 1, 0, 1);
  std::array<int, 11> limits{};
  int scans = 0;
  for (int i = 0; i < 20'000; ++i) {
    const Operation op = client.Next();
    if (op.type != OpType::kRange) continue;
    ++scans;
    ASSERT_EQ(op.range_end, kMaxU64);
    ASSERT_GE(op.limit, 1u);
    ASSERT_LE(op.limit, 10u);
    ASSERT_LE(op.key, spec.keys);
    ++limits[op.limit];
  }
  // Expected scans / 10 each, about 1900.
  for (size_t limit = 1; limit <= 10; ++limit) EXPECT_NEAR(limits[limit], scans / 10, 300);
}

TEST(ClientWorkloadTest, RejectsMismatchedArguments) {
  const WorkloadSpec spec = Mix("ycsb-c", 1000);
  KeySpace keys(spec, 1);
  EXPECT_THROW(ClientWorkload(spec, keys, 1, 4, 4), std::invalid_argument);
  EXPECT_THROW(ClientWorkload(spec, keys, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(ClientWorkload(Mix("ycsb-c", 2000), keys, 1, 0, 1), std::invalid_argument);
  WorkloadSpec uniform = spec;
  uniform.distribution = KeyDistribution::kUniform;
  KeySpace uniform_keys(uniform, 1);
  EXPECT_THROW(ClientWorkload(spec, uniform_keys, 1, 0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace dmbench::workloads
