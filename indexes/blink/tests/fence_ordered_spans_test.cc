#include "indexes/blink/fence_ordered_spans.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace dmbench::indexes {
namespace {

struct TestSpan {
  uint64_t low_fence;
  uint64_t high_fence;
};

using Reference = std::map<uint64_t, uint64_t>;  // low fence -> high fence

const TestSpan* ReferenceAtOrBelow(const Reference& reference, uint64_t key, TestSpan* out) {
  auto it = reference.upper_bound(key);
  if (it == reference.begin()) return nullptr;
  --it;
  *out = {it->first, it->second};
  return out;
}

// Random inserts and erases, past many chunk splits and merges of emptied
// chunks, answer every query as a std::map does.
TEST(FenceOrderedSpans, AnswersAsASortedMapThroughSplitsAndErases) {
  FenceOrderedSpans<TestSpan> spans;
  Reference reference;
  std::mt19937_64 random(7);
  constexpr uint64_t kSlots = 20'000;  // span i covers [10 i, 10 i + width)
  for (int step = 0; step < 60'000; ++step) {
    const uint64_t slot = random() % kSlots;
    const uint64_t low = slot * 10;
    // Grow for the first half, then shrink, so that chunks empty out too.
    const bool insert = step < 30'000 ? random() % 4 != 0 : random() % 4 == 0;
    if (insert && !reference.count(low)) {
      const TestSpan span{low, low + 1 + random() % 9};
      spans.Insert(span);
      reference[low] = span.high_fence;
    } else if (!insert) {
      EXPECT_EQ(spans.Erase(low), reference.erase(low) == 1) << "erase " << low;
    }
    const uint64_t key = random() % (kSlots * 10 + 20);
    TestSpan expected{};
    const TestSpan* want = ReferenceAtOrBelow(reference, key, &expected);
    const TestSpan* got = spans.LastAtOrBelow(key);
    ASSERT_EQ(got == nullptr, want == nullptr) << "key " << key << " step " << step;
    if (got != nullptr) {
      ASSERT_EQ(got->low_fence, want->low_fence) << "key " << key;
    }
    ASSERT_EQ(spans.Find(key) != nullptr, reference.count(key) == 1) << "key " << key;
  }
  EXPECT_GT(spans.chunks(), 1u) << "the test never split a chunk";
}

TEST(FenceOrderedSpans, OverlappingListsTheSpansThatReachIntoTheRangeInOrder) {
  FenceOrderedSpans<TestSpan> spans;
  Reference reference;
  for (uint64_t i = 0; i < 1'000; ++i) {
    // Gaps between spans: [20 i, 20 i + 15).
    spans.Insert({20 * i, 20 * i + 15});
    reference[20 * i] = 20 * i + 15;
  }
  for (const auto& [low, high] : std::vector<std::pair<uint64_t, uint64_t>>{
           {0, 1}, {14, 15}, {15, 20}, {16, 41}, {7, 5'000}, {19'990, 30'000}, {50'000, 60'000}}) {
    std::vector<uint64_t> want;
    for (const auto& [span_low, span_high] : reference) {
      if (span_low < high && span_high > low) want.push_back(span_low);
    }
    std::vector<uint64_t> got;
    for (const TestSpan& span : spans.Overlapping(low, high)) got.push_back(span.low_fence);
    EXPECT_EQ(got, want) << "[" << low << ", " << high << ")";
  }
}

TEST(FenceOrderedSpans, AnEmptySetAndAKeyBelowEverySpanFindNothing) {
  FenceOrderedSpans<TestSpan> spans;
  EXPECT_EQ(spans.LastAtOrBelow(5), nullptr);
  EXPECT_FALSE(spans.Erase(5));
  EXPECT_TRUE(spans.Overlapping(0, 100).empty());
  spans.Insert({10, 20});
  EXPECT_EQ(spans.LastAtOrBelow(9), nullptr);
  EXPECT_FALSE(spans.Erase(9));
  spans.Insert({0, 5});  // a new first span, below the first chunk's front
  ASSERT_NE(spans.LastAtOrBelow(9), nullptr);
  EXPECT_EQ(spans.LastAtOrBelow(9)->low_fence, 0u);
  EXPECT_TRUE(spans.Erase(10));
  EXPECT_TRUE(spans.Erase(0));
  EXPECT_EQ(spans.chunks(), 0u);
}

}  // namespace
}  // namespace dmbench::indexes
