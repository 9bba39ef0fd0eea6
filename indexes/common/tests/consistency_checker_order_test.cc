// One client's operations are sequential: where its intervals touch, as a
// simulated client's do (it begins its next operation at the instant the
// last one ends), or overlap, as widened loaded histories do, its order still
// decides what a later read may return. Other clients' equal times order
// nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "indexes/common/consistency_checker.h"
#include "indexes/common/tests/report_messages.h"

namespace dmbench::indexes {
namespace {

using test_support::AllMessages;

TEST(ConsistencyCheckerOrderTest, OwnBackToBackWritesSupersedeTheEarlierOne) {
  ConsistencyChecker c;
  c.RecordUpsert(0, 1000, 5, 100, 200);
  c.RecordUpsert(0, 1000, 6, 200, 300);  // begins as the first ends
  c.RecordLookup(1, 1000, 6, 400, 410);
  EXPECT_TRUE(c.Check().ok());
  c.RecordLookup(1, 1000, 5, 400, 410);  // the value client 0 overwrote: lost
  const ConsistencyReport report = c.Check();
  EXPECT_EQ(report.violations, 1u) << AllMessages(report);
  EXPECT_NE(report.examples.at(0).message.find("allowed: 6"), std::string::npos)
      << AllMessages(report);
}

TEST(ConsistencyCheckerOrderTest, ReadAtTheInstantOfOwnWriteMustSeeIt) {
  ConsistencyChecker c;
  for (uint64_t key = 7000; key < 7003; ++key) c.SetInitial(key, 1);
  c.RecordUpsert(2, 7002, 2, 400, 500);
  c.RecordLookup(2, 7002, 2, 500, 600);
  c.RecordLookup(3, 7000, 1, 500, 600);  // another client's touching read may miss it
  c.RecordUpsert(0, 7000, 2, 400, 500);
  c.RecordDelete(1, 7001, true, 400, 500);
  EXPECT_TRUE(c.Check().ok()) << AllMessages(c.Check());
  c.RecordLookup(0, 7000, 1, 500, 600);     // the value its own upsert replaced
  c.RecordDelete(1, 7001, true, 500, 600);  // deleted already, by itself
  const ConsistencyReport report = c.Check();
  EXPECT_EQ(report.violations, 2u) << AllMessages(report);
}

TEST(ConsistencyCheckerOrderTest, OtherClientsAtEqualTimesStayConcurrent) {
  ConsistencyChecker c;
  c.SetInitial(3, 30);
  c.RecordUpsert(0, 3, 31, 100, 200);
  c.RecordUpsert(1, 3, 32, 200, 300);  // client 1 began as client 0's write ended
  c.RecordLookup(2, 3, 30, 200, 210);  // client 2 too: 31 may not have landed
  c.RecordLookup(3, 3, 31, 300, 310);  // 32 may not have either
  c.RecordLookup(3, 3, 32, 300, 310);
  const ConsistencyReport report = c.Check();
  EXPECT_TRUE(report.ok()) << AllMessages(report);
  c.RecordLookup(3, 3, 30, 301, 310);  // after both, with one of them completed first
  EXPECT_EQ(c.Check().violations, 1u);
}

TEST(ConsistencyCheckerOrderTest, ALaterOwnWriteInTheSameInstantStillCounts) {
  ConsistencyChecker c;
  c.RecordUpsert(0, 9, 1, 100, 200);
  c.RecordLookup(0, 8, std::nullopt, 200, 200);  // an operation of no length between them
  c.RecordUpsert(0, 9, 2, 200, 300);
  c.RecordLookup(1, 9, 1, 400, 500);
  EXPECT_EQ(c.Check().violations, 1u) << AllMessages(c.Check());
}

TEST(ConsistencyCheckerOrderTest, WriteAndReadOfNoLengthAtOneInstant) {
  ConsistencyChecker c;
  c.RecordUpsert(0, 4, 44, 100, 100);
  c.RecordLookup(0, 4, 44, 100, 100);
  EXPECT_TRUE(c.Check().ok()) << AllMessages(c.Check());
  c.RecordLookup(0, 4, std::nullopt, 100, 100);
  EXPECT_EQ(c.Check().violations, 1u);
}

TEST(ConsistencyCheckerOrderTest, ClientOrderHoldsInWidenedLoadedHistories) {
  ConsistencyChecker recorder;
  recorder.RecordUpsert(0, 1, 10, 1000, 1100);
  recorder.RecordUpsert(0, 1, 11, 1100, 1200);
  recorder.RecordLookup(0, 1, 11, 1200, 1300);
  recorder.RecordLookup(0, 1, 10, 1300, 1400);  // its own overwritten value
  std::stringstream history;
  recorder.SaveHistory(history);
  ConsistencyChecker merged;
  // Widened by 500 ns a side, every one of the four overlaps its neighbours.
  merged.LoadHistory(history, 500);
  const ConsistencyReport report = merged.Check();
  EXPECT_EQ(report.violations, 1u) << AllMessages(report);
}

// Clients whose operations often begin at the instant their last one ended,
// each taking effect at a point of its interval, applied to a map in that
// order (equal points in recording order, which is each client's own): a valid history, full of
// intervals that touch, of one client and of different ones (times are coarse, so they often
// coincide). A checker that ordered other clients' touching operations, or ignored a client's
// order, would reject some of it.
TEST(ConsistencyCheckerOrderTest, RandomTouchingHistoriesAreAccepted) {
  std::mt19937_64 rng(5);
  constexpr uint32_t kClients = 6;
  constexpr uint64_t kKeys = 4;
  struct Recorded {
    uint32_t client;
    uint64_t key, invoke, response, point, written;
    bool is_write;
  };
  std::vector<Recorded> ops;
  std::vector<uint64_t> clock(kClients, 0);
  for (uint64_t i = 0; i < 20'000; ++i) {
    const auto client = static_cast<uint32_t>(i % kClients);
    const uint64_t invoke = clock[client] + (rng() % 2 == 0 ? 0 : rng() % 3);
    const uint64_t response = invoke + 2 + rng() % 4;
    // A write takes effect in (invoke, response], a read in [invoke,
    // response): a write invoked as a read ends is after it, as the checker
    // has it, while a read invoked as another client's write ends may take
    // effect before or after it.
    const bool is_write = rng() % 2 == 0;
    const uint64_t point = invoke + (is_write ? 1 : 0) + rng() % (response - invoke);
    ops.push_back({client, rng() % kKeys, invoke, response, point, i + 1, is_write});
    clock[client] = response;
  }
  std::vector<size_t> by_point(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) by_point[i] = i;
  std::stable_sort(by_point.begin(), by_point.end(),
                   [&ops](size_t a, size_t b) { return ops[a].point < ops[b].point; });
  std::vector<uint64_t> value(kKeys, 0);
  std::vector<uint64_t> seen(ops.size());
  for (const size_t i : by_point) {
    if (ops[i].is_write) value[ops[i].key] = ops[i].written;
    seen[i] = value[ops[i].key];
  }
  ConsistencyChecker c;
  for (uint64_t key = 0; key < kKeys; ++key) c.SetInitial(key, 0);
  std::map<uint64_t, std::vector<uint32_t>> responders;  // who responded at each time
  for (size_t i = 0; i < ops.size(); ++i) {
    const Recorded& op = ops[i];
    if (op.is_write) {
      c.RecordUpsert(op.client, op.key, op.written, op.invoke, op.response);
    } else {
      c.RecordLookup(op.client, op.key, seen[i], op.invoke, op.response);
    }
    responders[op.response].push_back(op.client);
  }
  uint64_t own_touching = 0;
  uint64_t other_touching = 0;
  for (const Recorded& op : ops) {
    const auto at = responders.find(op.invoke);
    if (at == responders.end()) continue;
    for (const uint32_t client : at->second)
      (client == op.client ? own_touching : other_touching)++;
  }
  // After every operation, the last value of each key.
  uint64_t after = *std::max_element(clock.begin(), clock.end());
  for (uint64_t key = 0; key < kKeys; ++key, ++after) {
    c.RecordLookup(0, key, value[key], after, after + 1);
  }
  ASSERT_GT(own_touching, 5'000u);
  ASSERT_GT(other_touching, 5'000u);
  const ConsistencyReport report = c.Check();
  EXPECT_TRUE(report.ok()) << AllMessages(report);
  EXPECT_EQ(report.operations_checked, 20'000u + kKeys);
}

}  // namespace
}  // namespace dmbench::indexes
