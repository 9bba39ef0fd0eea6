#include "workloads/key_scrambler.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "workloads/zipfian_generator.h"

namespace dmbench::workloads {
namespace {

// Covers the 2-bit minimum (1..4), odd and even bit widths, exact powers of two and values just
// above them (the worst case for cycle-walking), and a large non-power-of-two.
TEST(KeyScramblerTest, IsABijectionOnZeroToN) {
  for (const uint64_t n :
       {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{4}, uint64_t{5}, uint64_t{1'000},
        uint64_t{65'536}, uint64_t{65'537}, uint64_t{131'072}, uint64_t{1'000'003}}) {
    const KeyScrambler scrambler(n, 42);
    EXPECT_EQ(scrambler.items(), n);
    std::vector<bool> seen(n);
    for (uint64_t rank = 0; rank < n; ++rank) {
      const uint64_t key = scrambler.Permute(rank);
      ASSERT_LT(key, n) << "n " << n << ", rank " << rank;
      ASSERT_FALSE(seen[key]) << "n " << n << ": rank " << rank << " collides on key " << key;
      seen[key] = true;
      ASSERT_EQ(scrambler.Inverse(key), rank) << "n " << n;
    }
  }
}

TEST(KeyScramblerTest, SameSeedGivesSamePermutation) {
  const KeyScrambler first(1'000'003, 9);
  const KeyScrambler second(1'000'003, 9);
  for (uint64_t rank = 0; rank < 10'000; ++rank) {
    ASSERT_EQ(first.Permute(rank), second.Permute(rank)) << "rank " << rank;
  }
}

TEST(KeyScramblerTest, DifferentSeedsGiveDifferentPermutations) {
  constexpr uint64_t kItems = 1'000;
  const KeyScrambler first(kItems, 1);
  const KeyScrambler second(kItems, 2);
  int agreements = 0;
  int fixed_points = 0;
  for (uint64_t rank = 0; rank < kItems; ++rank) {
    if (first.Permute(rank) == second.Permute(rank)) ++agreements;
    if (first.Permute(rank) == rank) ++fixed_points;
  }
  // Independent random permutations agree on about one position, and fix about one point.
  EXPECT_LT(agreements, 10);
  EXPECT_LT(fixed_points, 10);
}

// The point of scrambling: the hottest ranks of a skewed workload must not sit in one narrow
// key range (hence in a few B+Tree leaves). 100 keys thrown at random into 100 slices occupy
// about 63 of them (sd ~3); ascending keys occupy 1.
TEST(KeyScramblerTest, SpreadsHotZipfianRanksOverTheKeySpace) {
  constexpr uint64_t kItems = 1'000'000;
  constexpr uint64_t kHotRanks = 100;
  constexpr uint64_t kSlices = 100;
  const ZipfianGenerator zipf(kItems, 0.99);
  // Guards the premise that ranks 0..99 are the hottest ones.
  for (uint64_t rank = 1; rank <= kHotRanks; ++rank) {
    ASSERT_LT(zipf.Probability(rank), zipf.Probability(rank - 1));
  }
  const KeyScrambler scrambler(kItems, 2024);
  std::vector<bool> occupied(kSlices);
  for (uint64_t rank = 0; rank < kHotRanks; ++rank) {
    occupied[scrambler.Permute(rank) * kSlices / kItems] = true;
  }
  int occupied_slices = 0;
  for (const bool slice : occupied) occupied_slices += slice ? 1 : 0;
  EXPECT_GE(occupied_slices, 50);
}

TEST(KeyScramblerTest, RejectsOutOfRangeInput) {
  EXPECT_THROW(KeyScrambler(0, 1), std::invalid_argument);
  const KeyScrambler scrambler(1'000, 1);
  EXPECT_THROW(scrambler.Permute(1'000), std::out_of_range);
  EXPECT_THROW(scrambler.Inverse(1'000), std::out_of_range);
}

TEST(KeyScramblerTest, PermuteRunGivesThePermutationOfEveryRankOfTheRun) {
  // Runs shorter and longer than a batch; domains with long walks (stepped
  // breadth first: 1, 2, 3, 17, 4 097 and 100 003 ranks) and with short ones
  // (the plain loop: 15 and 60 000 ranks, whose networks permute 16 and
  // 65 536 values).
  for (const uint64_t items : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{15}, uint64_t{17},
                               uint64_t{4'097}, uint64_t{60'000}, uint64_t{100'003}}) {
    const KeyScrambler scrambler(items, items * 7 + 1);
    for (const uint64_t first : {uint64_t{0}, items / 3, items - 1}) {
      const uint64_t count = items - first;
      std::vector<uint64_t> out(count + 1, ~uint64_t{0});
      scrambler.PermuteRun(first, count, out.data());
      for (uint64_t i = 0; i < count; ++i) {
        ASSERT_EQ(out[i], scrambler.Permute(first + i)) << "n " << items << " rank " << first + i;
      }
      EXPECT_EQ(out[count], ~uint64_t{0}) << "wrote past the run";
    }
  }
  // Past 2^32 keys the rounds are hashed, not tabled: long walks (2^40 + 5)
  // and short ones (2^34 - 5).
  for (const uint64_t items : {(uint64_t{1} << 40) + 5, (uint64_t{1} << 34) - 5}) {
    const KeyScrambler scrambler(items, 9);
    std::vector<uint64_t> out(1'000);
    scrambler.PermuteRun(items / 2, out.size(), out.data());
    for (uint64_t i = 0; i < out.size(); ++i) {
      ASSERT_EQ(out[i], scrambler.Permute(items / 2 + i)) << "n " << items << " rank " << i;
    }
  }
}

TEST(KeyScramblerTest, PermuteRunRejectsARunPastTheEnd) {
  const KeyScrambler scrambler(1'000, 1);
  uint64_t out[2];
  EXPECT_THROW(scrambler.PermuteRun(999, 2, out), std::out_of_range);
  EXPECT_THROW(scrambler.PermuteRun(1'000, 1, out), std::out_of_range);
  EXPECT_THROW(scrambler.PermuteRun(5, ~uint64_t{0}, out), std::out_of_range);
  EXPECT_NO_THROW(scrambler.PermuteRun(1'000, 0, out));
}

TEST(KeyScramblerTest, HandlesTheFullSixtyFourBitDomain) {
  constexpr uint64_t kItems = ~uint64_t{0};
  const KeyScrambler scrambler(kItems, 3);
  for (const uint64_t rank : {uint64_t{0}, uint64_t{1}, kItems / 2, kItems - 1}) {
    const uint64_t key = scrambler.Permute(rank);
    EXPECT_LT(key, kItems);
    EXPECT_EQ(scrambler.Inverse(key), rank);
  }
}

// Key spaces up to 2^32 keys take PermuteRun's round function from a table,
// while Permute and Inverse hash. The values below were recorded when every
// round was hashed: both paths must give them, at 1 B keys and at the
// largest tabled space.
TEST(KeyScramblerTest, TabledRoundsKeepTheHashedPermutation) {
  struct Pin {
    uint64_t items;
    uint64_t rank;
    uint64_t key;
  };
  const Pin pins[] = {
      {1'000'000'000, 0, 824712989},
      {1'000'000'000, 1, 92829287},
      {1'000'000'000, 123456789, 906060787},
      {1'000'000'000, 999999999, 664096221},
      {uint64_t{1} << 32, 0, 1649450781},
      {uint64_t{1} << 32, 1, 2855369157},
      {uint64_t{1} << 32, 123456789, 1974265366},
      {uint64_t{1} << 32, (uint64_t{1} << 32) - 1, 1647885736},
  };
  for (const Pin& pin : pins) {
    const KeyScrambler scrambler(pin.items, 42);
    EXPECT_EQ(scrambler.Permute(pin.rank), pin.key) << pin.items << " " << pin.rank;
    EXPECT_EQ(scrambler.Inverse(pin.key), pin.rank) << pin.items << " " << pin.key;
    uint64_t run_key = 0;
    scrambler.PermuteRun(pin.rank, 1, &run_key);
    EXPECT_EQ(run_key, pin.key) << pin.items << " " << pin.rank;
  }
}

}  // namespace
}  // namespace dmbench::workloads
