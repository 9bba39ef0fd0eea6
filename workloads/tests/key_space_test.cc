// KeySpace: ranks map one-to-one onto keys 1..N, the bulkload is an exact-size subset that is
// independent of hotness, and ycsb-d's new keys are handed out once each, across threads.
#include "workloads/key_space.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "harness/util/random.h"
#include "workloads/workload_spec.h"

namespace dmbench::workloads {
namespace {

WorkloadSpec Spec(uint64_t keys, double bulkload_fraction = 0.8) {
  WorkloadSpec spec;
  spec.keys = keys;
  spec.bulkload_fraction = bulkload_fraction;
  return spec;
}

void CheckKeyOfRankIsABijection(const KeySpace& keys, uint64_t n) {
  ASSERT_EQ(keys.size(), n);
  std::vector<bool> seen(n + 1);
  for (uint64_t rank = 0; rank < n; ++rank) {
    const uint64_t key = keys.KeyOfRank(rank);
    ASSERT_GE(key, 1u);
    ASSERT_LE(key, n);
    ASSERT_FALSE(seen[key]) << "n " << n << ": key " << key << " hit twice";
    seen[key] = true;
    ASSERT_EQ(keys.RankOfKey(key), rank);
  }
  EXPECT_THROW(keys.KeyOfRank(n), std::out_of_range);
  EXPECT_THROW(keys.RankOfKey(0), std::out_of_range);
}

TEST(KeySpaceTest, KeyOfRankIsABijectionOntoOneToN) {
  // 200'003 keys: more than a skewed key space tables for its hottest ranks,
  // so both the table and the permutation past it answer; a uniform one
  // tables none. RankOfKey inverts the permutation itself, so it checks the
  // table too.
  for (const uint64_t n :
       {uint64_t{16}, uint64_t{17}, uint64_t{1000}, uint64_t{4099}, uint64_t{200'003}}) {
    for (const KeyDistribution distribution :
         {KeyDistribution::kZipfian, KeyDistribution::kUniform}) {
      WorkloadSpec spec = Spec(n);
      spec.distribution = distribution;
      CheckKeyOfRankIsABijection(KeySpace(spec, 7), n);
    }
  }
}

TEST(KeySpaceTest, RanksAreScattered) {
  // The identity would keep the hottest ranks in the first leaves of the tree.
  const KeySpace keys(Spec(1'000'000), 7);
  int small = 0;
  for (uint64_t rank = 0; rank < 100; ++rank) small += keys.KeyOfRank(rank) <= 1000 ? 1 : 0;
  EXPECT_LT(small, 5);
}

TEST(KeySpaceTest, BulkloadIsAnExactSizeSubset) {
  for (const double fraction : {0.8, 0.5, 0.333, 1.0}) {
    for (const uint64_t n : {uint64_t{16}, uint64_t{1001}, uint64_t{50'000}}) {
      const KeySpace keys(Spec(n, fraction), 3);
      const auto expected = static_cast<uint64_t>(std::llround(static_cast<double>(n) * fraction));
      uint64_t loaded = 0;
      for (uint64_t key = 1; key <= n; ++key) loaded += keys.Bulkloaded(key) ? 1 : 0;
      EXPECT_EQ(loaded, expected) << "n " << n << ", fraction " << fraction;
      EXPECT_EQ(keys.bulkload_count(), expected);
      EXPECT_FALSE(keys.Bulkloaded(0));
      EXPECT_FALSE(keys.Bulkloaded(n + 1));
    }
  }
}

TEST(KeySpaceTest, BulkloadEntriesAreSortedUniqueLoadedAndDeterministic) {
  const KeySpace keys(Spec(20'000), 11);
  const auto entries = keys.BulkloadEntries(99);
  ASSERT_EQ(entries.size(), keys.bulkload_count());
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& [key, value] = entries[i];
    if (i > 0) {
      ASSERT_LT(entries[i - 1].first, key);
    }
    ASSERT_TRUE(keys.Bulkloaded(key)) << key;
    ASSERT_GE(value, 1u);
    ASSERT_LE(value, KeySpace::kMaxBulkloadValue);
    ASSERT_EQ(value, KeySpace::BulkloadValue(99, key));
  }
  EXPECT_EQ(entries, keys.BulkloadEntries(99));
  EXPECT_NE(entries, keys.BulkloadEntries(100));
  // BulkloadedKey enumerates the same set.
  std::set<uint64_t> enumerated;
  for (uint64_t i = 0; i < keys.bulkload_count(); ++i) enumerated.insert(keys.BulkloadedKey(i));
  ASSERT_EQ(enumerated.size(), entries.size());
  EXPECT_EQ(*enumerated.begin(), entries.front().first);
  EXPECT_EQ(*enumerated.rbegin(), entries.back().first);
  EXPECT_THROW(keys.BulkloadedKey(keys.bulkload_count()), std::out_of_range);
}

TEST(KeySpaceTest, SameSeedSameKeysDifferentSeedDifferentKeys) {
  const KeySpace first(Spec(10'000), 5);
  const KeySpace second(Spec(10'000), 5);
  const KeySpace other(Spec(10'000), 6);
  int differing = 0;
  for (uint64_t rank = 0; rank < 1000; ++rank) {
    ASSERT_EQ(first.KeyOfRank(rank), second.KeyOfRank(rank));
    ASSERT_EQ(first.Bulkloaded(rank + 1), second.Bulkloaded(rank + 1));
    differing += first.KeyOfRank(rank) != other.KeyOfRank(rank) ? 1 : 0;
  }
  EXPECT_GT(differing, 900);
}

// Hot keys are bulkloaded no more often than cold ones, so the share of Zipfian draws that hit a
// loaded key is the bulkload fraction. For one seed that share varies by about 0.037 (standard
// deviation of sum(p_r * loaded_r), dominated by whether the top ranks are loaded), so it is
// averaged over 16 seeds (0.009). Loading the hottest ranks instead would give about 1.0.
TEST(KeySpaceTest, ZipfianDrawsHitBulkloadedKeysAtTheBulkloadFraction) {
  constexpr int kSeeds = 16;
  constexpr int kDraws = 10'000;
  double share_sum = 0.0;
  for (int seed = 0; seed < kSeeds; ++seed) {
    const KeySpace keys(Spec(100'000, 0.8), seed);
    Random rng(DeriveSeed(77, seed));
    int loaded = 0;
    for (int i = 0; i < kDraws; ++i) {
      loaded += keys.Bulkloaded(keys.KeyOfRank(keys.zipfian()->Next(rng))) ? 1 : 0;
    }
    share_sum += static_cast<double>(loaded) / kDraws;
  }
  EXPECT_NEAR(share_sum / kSeeds, 0.8, 0.05);
}

TEST(KeySpaceTest, ZipfianIsBuiltOnceForSkewedDistributionsOnly) {
  WorkloadSpec spec = Spec(1000);
  const KeySpace zipfian(spec, 1);
  ASSERT_NE(zipfian.zipfian(), nullptr);
  EXPECT_EQ(zipfian.zipfian()->items(), 1000u);
  EXPECT_EQ(zipfian.zipfian()->theta(), 0.99);
  EXPECT_EQ(zipfian.zipfian(), zipfian.zipfian());
  spec.distribution = KeyDistribution::kUniform;
  EXPECT_EQ(KeySpace(spec, 1).zipfian(), nullptr);
}

TEST(KeySpaceTest, NextInsertKeyIsStrictlyIncreasingAcrossThreads) {
  constexpr uint64_t kN = 1000;
  constexpr int kPerThread = 20'000;
  KeySpace keys(Spec(kN), 1);
  EXPECT_EQ(keys.LatestKey(), kN);
  std::vector<uint64_t> handed[2];
  std::vector<std::thread> threads;
  for (auto& out : handed) {
    threads.emplace_back([&keys, &out] {
      for (int i = 0; i < kPerThread; ++i) out.push_back(keys.NextInsertKey());
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<uint64_t> all;
  for (const auto& out : handed) {
    for (size_t i = 1; i < out.size(); ++i) ASSERT_LT(out[i - 1], out[i]);
    all.insert(out.begin(), out.end());
  }
  ASSERT_EQ(all.size(), 2u * kPerThread);
  EXPECT_EQ(*all.begin(), kN + 1);
  EXPECT_EQ(*all.rbegin(), kN + 2 * kPerThread);
  EXPECT_EQ(keys.LatestKey(), kN + 2 * kPerThread);
  EXPECT_FALSE(keys.Bulkloaded(kN + 1));
}

}  // namespace
}  // namespace dmbench::workloads
