// SaveHistory / LoadHistory: histories recorded by separate processes and
// loaded into one checker must check as if one checker had recorded them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "harness/rdma/errors.h"
#include "indexes/common/consistency_checker.h"

namespace dmbench::indexes {
namespace {

constexpr std::optional<uint64_t> kNotFound = std::nullopt;

using Recording = std::function<void(ConsistencyChecker&)>;

struct Recorded {
  uint32_t client;
  Recording record;
};

// Upserts, deletes, lookups and ranges of two "processes" (clients 0-1 and
// 2-3), interleaved in time as a cluster would run them.
std::vector<Recorded> ValidHistory() {
  return {
      {0, [](ConsistencyChecker& c) { c.RecordUpsert(0, 1, 11, 10, 20); }},
      {2, [](ConsistencyChecker& c) { c.RecordLookup(2, 1, 11, 30, 40); }},
      {1, [](ConsistencyChecker& c) { c.RecordUpsert(1, 2, 5, 15, 60); }},
      {3, [](ConsistencyChecker& c) { c.RecordLookup(3, 2, kNotFound, 20, 30); }},
      {2, [](ConsistencyChecker& c) { c.RecordDelete(2, 3, true, 50, 70); }},
      {0, [](ConsistencyChecker& c) { c.RecordLookup(0, 3, kNotFound, 80, 90); }},
      {3,
       [](ConsistencyChecker& c) {
         c.RecordRange(3, 0, 10, 0, {{1, 11}, {2, 5}, {4, 40}}, 100, 120);
       }},
      {1,
       [](ConsistencyChecker& c) {
         c.RecordRange(1, 1, 3, 1, {{1, 11}}, 100, 130);
       }},
      {0, [](ConsistencyChecker& c) { c.RecordLookup(0, 4, 40, 100, 110); }},
  };
}

std::vector<Recorded> HistoryWithViolations() {
  std::vector<Recorded> history = ValidHistory();
  // A value never written, and a range missing a key that existed throughout.
  history.push_back({2, [](ConsistencyChecker& c) { c.RecordLookup(2, 1, 99, 200, 210); }});
  history.push_back({1, [](ConsistencyChecker& c) {
                       c.RecordRange(1, 0, 10, 0, {{2, 5}, {4, 40}}, 200, 220);
                     }});
  return history;
}

void SetInitial(ConsistencyChecker& c) {
  c.SetInitial(3, 30);
  c.SetInitial(4, 40);
}

std::string Saved(const ConsistencyChecker& c) {
  std::ostringstream out;
  c.SaveHistory(out);
  return out.str();
}

void Load(ConsistencyChecker& c, const std::string& history, uint64_t widen_ns) {
  std::istringstream in(history);
  c.LoadHistory(in, widen_ns);
}

std::vector<std::string> SortedMessages(const ConsistencyReport& report) {
  std::vector<std::string> messages;
  for (const ConsistencyViolation& v : report.examples) messages.push_back(v.message);
  std::sort(messages.begin(), messages.end());
  return messages;
}

void ExpectMergedChecksLikeOne(const std::vector<Recorded>& history) {
  ConsistencyChecker process_a, process_b, one;
  SetInitial(one);
  for (const Recorded& op : history) {
    op.record(op.client < 2 ? process_a : process_b);
    op.record(one);
  }
  ConsistencyChecker merged;
  SetInitial(merged);
  Load(merged, Saved(process_a), 0);
  Load(merged, Saved(process_b), 0);
  EXPECT_EQ(merged.recorded(), one.recorded());
  const ConsistencyReport expected = one.Check();
  const ConsistencyReport actual = merged.Check();
  EXPECT_EQ(actual.operations_checked, expected.operations_checked);
  EXPECT_EQ(actual.violations, expected.violations);
  EXPECT_EQ(SortedMessages(actual), SortedMessages(expected));
}

// The report of one checker that recorded the whole history.
ConsistencyReport CheckedAsOne(const std::vector<Recorded>& history) {
  ConsistencyChecker one;
  SetInitial(one);
  for (const Recorded& op : history) op.record(one);
  return one.Check();
}

TEST(ConsistencyHistoryTest, MergedValidHistoryChecksLikeOneChecker) {
  const std::vector<Recorded> history = ValidHistory();
  ExpectMergedChecksLikeOne(history);
  EXPECT_TRUE(CheckedAsOne(history).ok());
}

TEST(ConsistencyHistoryTest, MergedHistoryWithViolationsChecksLikeOneChecker) {
  const std::vector<Recorded> history = HistoryWithViolations();
  ExpectMergedChecksLikeOne(history);
  EXPECT_EQ(CheckedAsOne(history).violations, 2u);
}

TEST(ConsistencyHistoryTest, SetInitialIsNotSaved) {
  ConsistencyChecker saved;
  saved.SetInitial(1, 10);
  saved.RecordLookup(0, 1, 10, 5, 6);
  ConsistencyChecker loaded;
  Load(loaded, Saved(saved), 0);
  EXPECT_EQ(loaded.Check().violations, 1u);  // the initial 10 is unknown here
  loaded.SetInitial(1, 10);
  EXPECT_TRUE(loaded.Check().ok());
}

// Process A's lookup ended at 200 and returned the value process B's write
// began writing at 205: a violation under exact times, but with clocks that
// may be 5 ns apart the write may have begun first.
TEST(ConsistencyHistoryTest, WideningAdmitsReadsThatClockSkewCouldExplain) {
  ConsistencyChecker process_a, process_b;
  process_a.RecordLookup(0, 1, 7, 100, 200);
  process_b.RecordUpsert(1, 1, 7, 205, 300);
  for (const auto& [widen_ns, violations] :
       {std::pair<uint64_t, uint64_t>{0, 1}, {2, 1}, {5, 0}, {50, 0}}) {
    ConsistencyChecker merged;
    Load(merged, Saved(process_a), widen_ns);
    Load(merged, Saved(process_b), widen_ns);
    EXPECT_EQ(merged.Check().violations, violations) << "widen " << widen_ns;
  }
}

TEST(ConsistencyHistoryTest, WideningSaturatesAndKeepsInvalidIntervalsInvalid) {
  constexpr uint64_t kLatest = std::numeric_limits<uint64_t>::max();
  ConsistencyChecker saved;
  saved.RecordLookup(0, 1, 99, 3, 10);                     // never written: reported
  saved.RecordLookup(0, 2, 99, kLatest - 4, kLatest - 1);  // likewise
  saved.RecordLookup(0, 3, kNotFound, 100, 90);            // response before invoke
  ConsistencyChecker loaded;
  Load(loaded, Saved(saved), 10);
  const ConsistencyReport report = loaded.Check();
  ASSERT_EQ(report.violations, 3u);
  EXPECT_NE(report.examples[0].message.find("interval [0, 20]"), std::string::npos)
      << report.examples[0].message;
  EXPECT_NE(report.examples[1].message.find(std::to_string(kLatest - 14) + ", " +
                                            std::to_string(kLatest) + "]"),
            std::string::npos)
      << report.examples[1].message;
  EXPECT_NE(report.examples[2].message.find("interval [100, 90]: response precedes invoke"),
            std::string::npos)
      << report.examples[2].message;
}

void ExpectHistoryError(const std::string& history, const std::string& named) {
  ConsistencyChecker c;
  c.RecordUpsert(0, 1, 1, 1, 2);
  try {
    Load(c, history, 0);
    ADD_FAILURE() << "no ConfigError for a history of " << history.size() << " bytes";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("history file: " + named), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(c.recorded(), 1u);  // a failed load leaves the checker as it was
}

TEST(ConsistencyHistoryTest, TruncatedOrForeignStreamsAreRejected) {
  ConsistencyChecker saved;
  for (const Recorded& op : HistoryWithViolations()) op.record(saved);
  const std::string history = Saved(saved);
  for (size_t length = 0; length < history.size(); ++length) {
    ExpectHistoryError(history.substr(0, length), length < 8 ? "not a dmbench" : "truncated in ");
  }
  std::string foreign = history;
  foreign[0] = '{';
  ExpectHistoryError(foreign, "not a dmbench consistency history (bad magic)");
  std::string future = history;
  future[8] = 2;
  ExpectHistoryError(future, "version 2, but this build reads version 1");
  std::string bad_kind = history;
  bad_kind[28 + 36] = 9;  // kind of operation 0, after the header and its 36 bytes of fields
  ExpectHistoryError(bad_kind, "operation 0 has kind 9");
  ExpectHistoryError(history + '\0', "bytes follow its last range");
  ExpectHistoryError(history + history, "bytes follow its last range");
}

// Two range operations pointing at one range would leave the other range's
// result unchecked.
TEST(ConsistencyHistoryTest, EachRangeOperationHasItsOwnRange) {
  ConsistencyChecker saved;
  saved.RecordRange(0, 0, 10, 0, {}, 10, 20);
  saved.RecordRange(0, 0, 10, 0, {{5, 99}}, 30, 40);  // key 5 was never written
  const std::string history = Saved(saved);
  {
    ConsistencyChecker loaded;
    Load(loaded, history, 0);
    EXPECT_EQ(loaded.Check().violations, 1u);
  }
  std::string shared = history;
  constexpr size_t kOperationBytes = 38;  // 4 x u64, u32, 2 x u8
  shared[28 + kOperationBytes + 8] = 0;   // the arg of operation 1: range 0
  ExpectHistoryError(shared, "operation 1 refers to range 0, but it is range operation 1");
}

}  // namespace
}  // namespace dmbench::indexes
