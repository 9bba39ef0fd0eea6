// A bulkload from an array: its keys are checked once, where the array
// becomes a source, and its every-n-th walk gives the leaf boundaries.
#include "indexes/common/bulkload_source.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "indexes/common/tests/write_range_check.h"

namespace dmbench::indexes {
namespace {

TEST(SortedEntries, RejectsKeysThatAreNotStrictlyAscendingUserKeys) {
  EXPECT_THROW(SortedEntries({{1, 0}, {3, 0}, {2, 0}}), std::invalid_argument);
  EXPECT_THROW(SortedEntries({{1, 0}, {1, 0}}), std::invalid_argument);
  EXPECT_THROW(SortedEntries({{0, 0}, {5, 0}}), std::invalid_argument);
  EXPECT_THROW(SortedEntries({{5, 0}, {UINT64_MAX, 0}}), std::invalid_argument);
  EXPECT_NO_THROW(SortedEntries({{1, 0}, {UINT64_MAX - 1, 0}}));
  EXPECT_NO_THROW(SortedEntries({}));
}

TEST(SortedEntries, EveryNthKeyVisitsPositionsZeroNTwoN) {
  std::vector<KeyValue> entries;
  for (uint64_t key = 10; key < 20; ++key) entries.emplace_back(key, key);
  const SortedEntries source(entries);
  std::vector<uint64_t> keys;
  EXPECT_EQ(source.EveryNthKey(4, [&](uint64_t key) { keys.push_back(key); }), 10u);
  EXPECT_EQ(keys, (std::vector<uint64_t>{10, 14, 18}));
}

// The base class's WriteRange, through Range, for ranges inside, across and
// outside the entries.
TEST(SortedEntries, WriteRangeWritesTheRangesEntries) {
  std::vector<KeyValue> entries;
  for (uint64_t key = 10; key < 40; key += 3) entries.emplace_back(key, key * 7 + 1);
  const SortedEntries source(entries);
  for (const uint64_t from : {0, 10, 11, 25, 37, 38, 50}) {
    for (const uint64_t to : {0, 10, 13, 26, 38, 60}) {
      test_support::ExpectWriteRangeIsRange(source, from, to);
    }
  }
}

}  // namespace
}  // namespace dmbench::indexes
