// Hand-written range queries against a history: each test pairs scans the
// checker must accept with scans it must reject (order, bounds, limit,
// phantoms, keys that existed throughout), so a checker that accepts or
// rejects every scan fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "indexes/common/consistency_checker.h"

namespace dmbench::indexes {
namespace {

using KeyValues = std::vector<ConsistencyChecker::KeyValue>;

class RangeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (uint64_t key = 1; key <= 10; ++key) c_.SetInitial(key, key * 10);
  }
  // A full, correct scan of [from, to) of the untouched initial contents.
  static KeyValues Initial(uint64_t from, uint64_t to) {
    KeyValues result;
    for (uint64_t key = from; key < to && key <= 10; ++key) result.emplace_back(key, key * 10);
    return result;
  }
  uint64_t Violations() { return c_.Check().violations; }

  ConsistencyChecker c_;
};

TEST_F(RangeTest, CorrectScansAreAccepted) {
  c_.RecordRange(0, 1, 11, 0, Initial(1, 11), 10, 20);
  c_.RecordRange(0, 3, 6, 0, Initial(3, 6), 10, 20);
  c_.RecordRange(0, 20, 30, 0, {}, 10, 20);
  c_.RecordRange(0, 5, 5, 0, {}, 10, 20);
  EXPECT_EQ(Violations(), 0u);
}

TEST_F(RangeTest, OutOfOrderKeysAreRejected) {
  c_.RecordRange(0, 1, 4, 0, {{2, 20}, {1, 10}, {3, 30}}, 10, 20);
  c_.RecordRange(0, 1, 4, 0, {{1, 10}, {2, 20}, {2, 20}, {3, 30}}, 10, 20);
  EXPECT_EQ(Violations(), 2u);
}

TEST_F(RangeTest, KeyOutsideRangeIsRejected) {
  c_.RecordRange(0, 2, 4, 0, Initial(2, 5), 10, 20);
  c_.RecordRange(0, 2, 4, 0, Initial(1, 4), 10, 20);
  c_.RecordRange(0, 2, 4, 0, Initial(2, 4), 10, 20);
  EXPECT_EQ(Violations(), 2u);
}

TEST_F(RangeTest, TooManyResultsAreRejected) {
  c_.RecordRange(0, 1, 4, 2, Initial(1, 4), 10, 20);
  c_.RecordRange(0, 1, 4, 3, Initial(1, 4), 10, 20);
  EXPECT_EQ(Violations(), 1u);
}

TEST_F(RangeTest, PhantomKeyAndWrongValueAreRejected) {
  c_.RecordRange(0, 10, 13, 0, {{10, 100}, {11, 110}}, 10, 20);  // 11 never existed
  c_.RecordRange(0, 9, 11, 0, {{9, 90}, {10, 99}}, 10, 20);      // 99 never written
  EXPECT_EQ(Violations(), 2u);
}

TEST_F(RangeTest, KeyDeletedBeforeTheQueryIsRejected) {
  c_.RecordDelete(1, 2, true, 10, 20);
  c_.RecordRange(0, 1, 4, 0, {{1, 10}, {2, 20}, {3, 30}}, 30, 40);
  c_.RecordRange(0, 1, 4, 0, {{1, 10}, {3, 30}}, 30, 40);
  EXPECT_EQ(Violations(), 1u);
}

TEST_F(RangeTest, MissingKeyThatExistedThroughoutIsRejected) {
  c_.RecordUpsert(1, 20, 200, 10, 20);
  c_.RecordRange(0, 1, 4, 0, {{1, 10}, {3, 30}}, 30, 40);  // initial key 2 missing
  c_.RecordRange(0, 10, 30, 0, {{10, 100}}, 30, 40);       // inserted key 20 missing
  c_.RecordRange(0, 10, 30, 0, {{10, 100}, {20, 200}}, 30, 40);
  EXPECT_EQ(Violations(), 2u);
}

TEST_F(RangeTest, MissingKeyChangedConcurrentlyIsAccepted) {
  c_.RecordDelete(1, 2, true, 10, 50);
  c_.RecordUpsert(2, 20, 200, 10, 50);
  KeyValues without_2 = Initial(1, 11);
  without_2.erase(without_2.begin() + 1);
  KeyValues with_20 = Initial(1, 11);
  with_20.emplace_back(20, 200);
  c_.RecordRange(0, 1, 30, 0, without_2, 20, 30);  // neither 2 nor 20
  c_.RecordRange(0, 1, 30, 0, with_20, 20, 30);    // both
  EXPECT_EQ(Violations(), 0u);
  c_.RecordRange(0, 1, 30, 0, without_2, 60, 70);  // 20 existed throughout
  EXPECT_EQ(Violations(), 1u);
}

TEST_F(RangeTest, LimitTruncatesOnlyAfterTheLastReturnedKey) {
  c_.RecordRange(0, 0, 100, 3, Initial(1, 4), 10, 20);
  c_.RecordRange(0, 4, 100, 1, Initial(4, 5), 10, 20);
  EXPECT_EQ(Violations(), 0u);
  c_.RecordRange(0, 0, 100, 3, {{1, 10}, {2, 20}, {4, 40}}, 10, 20);  // 3 skipped
  c_.RecordRange(0, 0, 100, 3, Initial(1, 3), 10, 20);                // not full: 3 missing
  c_.RecordRange(0, 0, 100, 0, Initial(1, 6), 10, 20);                // unlimited: 6 missing
  EXPECT_EQ(Violations(), 3u);
}

}  // namespace
}  // namespace dmbench::indexes
