#include "harness/util/interpolated_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace dmbench {
namespace {

// Every probe key of interest: each element, its neighbours, the extremes.
void ExpectUpperBoundAgrees(const std::vector<uint64_t>& sorted, std::mt19937_64& random) {
  std::vector<uint64_t> probes = {0, 1, UINT64_MAX, UINT64_MAX - 1};
  for (const uint64_t value : sorted) {
    probes.push_back(value);
    probes.push_back(value - 1);
    probes.push_back(value + 1);
  }
  for (int i = 0; i < 64; ++i) probes.push_back(random());
  // Bounds for the bounded search: the true ones, the widest, and some that
  // are wrong (too narrow, inverted, random), which may slow it but never
  // change its answer.
  const uint64_t first = sorted.empty() ? 0 : sorted.front();
  const uint64_t last = sorted.empty() ? 0 : sorted.back();
  const std::vector<std::pair<uint64_t, uint64_t>> bounds = {{first, last},
                                                             {0, UINT64_MAX},
                                                             {last, first},
                                                             {first + (last - first) / 2, last},
                                                             {random(), random()}};
  for (const uint64_t key : probes) {
    const auto expected = std::upper_bound(sorted.begin(), sorted.end(), key);
    ASSERT_EQ(InterpolatedUpperBound(sorted.begin(), sorted.end(), key), expected)
        << "key " << key << " over " << sorted.size() << " keys";
    for (const auto& [lowest, highest] : bounds) {
      ASSERT_EQ(InterpolatedUpperBoundWithin(sorted.begin(), sorted.end(), key, lowest, highest),
                expected)
          << "key " << key << " over " << sorted.size() << " keys within [" << lowest << ", "
          << highest << "]";
    }
  }
}

TEST(InterpolatedSearch, AgreesWithUpperBoundOnEvenlySpreadKeys) {
  std::mt19937_64 random(1);
  for (const size_t count : {size_t{0}, size_t{1}, size_t{2}, size_t{8}, size_t{9}, size_t{61},
                             size_t{256}, size_t{5000}}) {
    std::vector<uint64_t> keys;
    for (size_t i = 0; i < count; ++i) keys.push_back(1000 + 37 * i + random() % 20);
    ExpectUpperBoundAgrees(keys, random);
  }
}

// Far from a line the guesses miss by much, and the gallops must still end
// on the same element: keys crowded at one end, duplicates, the full range.
TEST(InterpolatedSearch, AgreesWithUpperBoundOnUnevenKeys) {
  std::mt19937_64 random(2);
  std::vector<uint64_t> geometric;
  for (uint64_t value = 1; value < (uint64_t{1} << 63); value *= 3) geometric.push_back(value);
  ExpectUpperBoundAgrees(geometric, random);

  std::vector<uint64_t> crowded(500, 7);
  crowded.push_back(UINT64_MAX);
  ExpectUpperBoundAgrees(crowded, random);

  std::vector<uint64_t> extremes = {0, 0, 1, 2, 3, 4, 5, 6, 7, UINT64_MAX - 1, UINT64_MAX};
  ExpectUpperBoundAgrees(extremes, random);

  for (int trial = 0; trial < 50; ++trial) {
    std::vector<uint64_t> keys(1 + random() % 3000);
    // Some clustered, some spread over the whole range.
    for (uint64_t& key : keys)
      key = trial % 2 == 0 ? random() : random() % 64 + (random() % 3) * 1000000;
    std::sort(keys.begin(), keys.end());
    ExpectUpperBoundAgrees(keys, random);
  }
}

TEST(InterpolatedSearch, ReadsKeysThroughAProjection) {
  struct Span {
    uint64_t low;
    int payload;
  };
  const std::vector<Span> spans = {{10, 0}, {20, 1}, {30, 2}, {40, 3}, {50, 4},
                                   {60, 5}, {70, 6}, {80, 7}, {90, 8}, {100, 9}};
  const auto low = [](const Span& span) { return span.low; };
  EXPECT_EQ(InterpolatedUpperBound(spans.begin(), spans.end(), 9, low), spans.begin());
  EXPECT_EQ(InterpolatedUpperBound(spans.begin(), spans.end(), 55, low)->payload, 5);
  EXPECT_EQ(InterpolatedUpperBound(spans.begin(), spans.end(), 60, low)->payload, 6);
  EXPECT_EQ(InterpolatedUpperBound(spans.begin(), spans.end(), 100, low), spans.end());
}

}  // namespace
}  // namespace dmbench
