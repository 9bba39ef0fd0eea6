// The lock benchmarks' two popularity laws: the locks themselves Zipfian
// (the earlier benchmarks, draw for draw) and Zipfian keys hashed to locks
// (Sherman's lock benchmark), whose hottest lock is about half as hot.
#include "harness/micro/lock_popularity.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "workloads/zipf_zeta.h"

namespace dmbench::micro {
namespace {

constexpr uint32_t kLocks = 10240;
constexpr double kTheta = 0.99;

// The shares of the `draws` draws that each lock took.
std::vector<double> Shares(const LockPopularity& popularity, int draws) {
  std::vector<double> counts(kLocks, 0);
  Random random(7);
  for (int i = 0; i < draws; ++i) {
    const uint32_t lock = popularity.Next(random);
    EXPECT_LT(lock, kLocks);
    if (lock >= kLocks) break;
    counts[lock] += 1.0 / draws;
  }
  return counts;
}

TEST(LockPopularity, LocksLawDrawsTheZipfianRanksThemselves) {
  const LockPopularity popularity(kLocks, kTheta, 0);
  const workloads::ZipfianGenerator zipfian(kLocks, kTheta);
  Random ours(3);
  Random theirs(3);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(popularity.Next(ours), zipfian.Next(theirs)) << i;
}

TEST(LockPopularity, KeysLawGivesTheHottestLockAboutTheHottestKeysShare) {
  constexpr int kDraws = 400000;
  const std::vector<double> keys =
      Shares(LockPopularity(kLocks, kTheta, kShermanLockBenchKeySpace), kDraws);
  const std::vector<double> locks = Shares(LockPopularity(kLocks, kTheta, 0), kDraws);
  const double hottest_key = 1 / workloads::ZetaFast(kShermanLockBenchKeySpace, kTheta);
  const double hottest_rank = 1 / workloads::ZetaExact(kLocks, kTheta);
  // The hottest key's lock also takes its share of the colder keys (about
  // one lock's worth of them) and sampling noise (sd ~0.03%).
  const double hottest_lock = *std::max_element(keys.begin(), keys.end());
  EXPECT_GT(hottest_lock, hottest_key - 0.002);
  EXPECT_LT(hottest_lock, hottest_key + 0.01);
  EXPECT_NEAR(locks[0], hottest_rank, 0.003);
  EXPECT_LT(hottest_lock, 0.6 * locks[0]);
  // Hashing spreads the hot locks: the hottest is no longer lock 0, and the
  // coldest half of the locks still takes a fair part of the load.
  std::vector<double> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  double coldest_half = 0;
  for (uint32_t i = 0; i < kLocks / 2; ++i) coldest_half += sorted[i];
  EXPECT_GT(coldest_half, 0.2);
}

TEST(LockPopularity, RefusesWhatCannotReachEveryLock) {
  EXPECT_THROW(LockPopularity(0, kTheta, 0), std::invalid_argument);
  EXPECT_THROW(LockPopularity(kLocks, kTheta, kLocks - 1), std::invalid_argument);
  EXPECT_THROW(LockPopularity(kLocks, 1.0, 0), std::invalid_argument);
  EXPECT_NO_THROW(LockPopularity(kLocks, kTheta, kLocks));
}

}  // namespace
}  // namespace dmbench::micro
