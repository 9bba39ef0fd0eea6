// Hand-written histories: each test pairs valid operations with invalid ones,
// so a checker that accepts everything (or rejects everything) fails.
#include "indexes/common/consistency_checker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "indexes/common/tests/report_messages.h"

namespace dmbench::indexes {
namespace {

using KeyValues = std::vector<ConsistencyChecker::KeyValue>;
constexpr std::optional<uint64_t> kAbsent = std::nullopt;

using test_support::AllMessages;

TEST(ConsistencyCheckerTest, SequentialHistoryIsAccepted) {
  ConsistencyChecker c;
  c.SetInitial(1, 10);
  c.RecordUpsert(0, 1, 11, 10, 20);
  c.RecordLookup(1, 1, 11, 30, 40);
  c.RecordUpsert(0, 2, 5, 50, 60);
  c.RecordLookup(1, 2, 5, 70, 80);
  c.RecordLookup(1, 3, kAbsent, 70, 80);
  c.RecordDelete(0, 2, true, 90, 100);
  c.RecordLookup(1, 2, kAbsent, 110, 120);
  const ConsistencyReport report = c.Check();
  EXPECT_TRUE(report.ok()) << AllMessages(report);
  EXPECT_EQ(report.operations_checked, 7u);
  EXPECT_EQ(c.recorded(), 7u);
}

TEST(ConsistencyCheckerTest, StaleReadIsRejected) {
  ConsistencyChecker c;
  c.RecordUpsert(0, 7, 1, 10, 20);
  c.RecordUpsert(0, 7, 2, 30, 40);
  c.RecordLookup(1, 7, 2, 50, 60);
  c.RecordLookup(1, 7, 1, 50, 60);  // value 1 was superseded by value 2
  const ConsistencyReport report = c.Check();
  EXPECT_EQ(report.violations, 1u) << AllMessages(report);
}

TEST(ConsistencyCheckerTest, LostWriteIsRejectedByFinalLookups) {
  ConsistencyChecker c;
  c.SetInitial(1, 100);
  c.RecordUpsert(0, 1, 200, 10, 20);
  c.RecordUpsert(0, 2, 300, 10, 20);
  c.RecordLookup(1, 1, 100, 1000, 1010);      // update lost: old value
  c.RecordLookup(1, 2, kAbsent, 1000, 1010);  // insert lost: absent
  c.RecordLookup(1, 1, 200, 1000, 1010);
  c.RecordLookup(1, 2, 300, 1000, 1010);
  EXPECT_EQ(c.Check().violations, 2u);
}

TEST(ConsistencyCheckerTest, ValueNeverWrittenIsRejected) {
  ConsistencyChecker c;
  c.RecordUpsert(0, 1, 5, 10, 50);
  c.RecordLookup(1, 1, 5, 20, 30);
  c.RecordLookup(1, 1, 6, 20, 30);
  c.RecordLookup(1, 9, 5, 20, 30);  // key 9 was never written
  EXPECT_EQ(c.Check().violations, 2u);
}

TEST(ConsistencyCheckerTest, AbsentForInitialKeyIsRejected) {
  ConsistencyChecker c;
  c.SetInitial(1, 99);
  c.SetInitial(1, 100);  // replaces 99
  c.RecordLookup(0, 1, 100, 10, 20);
  c.RecordLookup(0, 1, kAbsent, 10, 20);
  c.RecordLookup(0, 1, 99, 10, 20);
  EXPECT_EQ(c.Check().violations, 2u);
}

TEST(ConsistencyCheckerTest, LookupOverlappingWriteMayReturnOldOrNew) {
  ConsistencyChecker c;
  c.SetInitial(1, 100);
  c.RecordUpsert(0, 1, 200, 10, 50);
  c.RecordLookup(1, 1, 100, 20, 30);  // inside the write
  c.RecordLookup(1, 1, 200, 20, 30);
  c.RecordLookup(1, 1, 100, 5, 15);  // overlaps its start
  c.RecordLookup(1, 1, 200, 5, 15);
  c.RecordLookup(1, 1, 100, 45, 70);  // overlaps its end
  c.RecordLookup(1, 1, 200, 45, 70);
  c.RecordLookup(1, 1, 100, 50, 60);  // began as it responded: still concurrent
  EXPECT_TRUE(c.Check().ok());
  c.RecordLookup(1, 1, 200, 0, 10);   // ended as the write was invoked
  c.RecordLookup(1, 1, 100, 60, 70);  // began after it completed
  EXPECT_EQ(c.Check().violations, 2u);
}

TEST(ConsistencyCheckerTest, ConcurrentWritesEitherWinsButNotTheSupersededOne) {
  ConsistencyChecker c;
  c.RecordUpsert(0, 1, 1, 0, 10);
  c.RecordUpsert(1, 1, 2, 20, 60);
  c.RecordUpsert(2, 1, 3, 30, 70);
  c.RecordLookup(3, 1, 2, 100, 110);
  c.RecordLookup(3, 1, 3, 100, 110);
  EXPECT_TRUE(c.Check().ok());
  c.RecordLookup(3, 1, 1, 100, 110);
  c.RecordLookup(3, 1, kAbsent, 100, 110);
  EXPECT_EQ(c.Check().violations, 2u);
}

TEST(ConsistencyCheckerTest, LookupAfterCompletedDeleteMustBeAbsent) {
  ConsistencyChecker c;
  c.SetInitial(1, 5);
  c.RecordDelete(0, 1, true, 10, 20);
  c.RecordLookup(1, 1, kAbsent, 30, 40);
  c.RecordLookup(1, 1, 5, 15, 25);  // overlapping the delete
  c.RecordLookup(1, 1, kAbsent, 15, 25);
  EXPECT_TRUE(c.Check().ok());
  c.RecordLookup(1, 1, 5, 30, 40);
  EXPECT_EQ(c.Check().violations, 1u);
}

TEST(ConsistencyCheckerTest, DeleteExistedFlagIsCheckedBothWays) {
  ConsistencyChecker c;
  c.SetInitial(1, 5);
  c.RecordDelete(0, 1, false, 10, 20);  // rejected: only the initial value is a candidate
  c.RecordDelete(0, 2, true, 10, 20);   // rejected: key 2 never existed
  c.RecordDelete(0, 2, false, 30, 40);
  c.RecordUpsert(0, 3, 1, 100, 200);
  c.RecordDelete(1, 3, true, 150, 160);   // the upsert may have come first
  c.RecordDelete(2, 3, false, 150, 160);  // or not
  // A completed delete makes the key absent for the next one.
  c.SetInitial(4, 5);
  c.RecordDelete(0, 4, true, 10, 20);
  c.RecordDelete(0, 4, true, 30, 40);  // rejected
  c.RecordDelete(1, 4, false, 30, 40);
  const ConsistencyReport report = c.Check();
  EXPECT_EQ(report.violations, 3u) << AllMessages(report);
}

TEST(ConsistencyCheckerTest, MessagesNameOperationKeyIntervalAndAllowedValues) {
  ConsistencyChecker c;
  for (uint64_t value = 1; value <= 8; ++value) c.RecordUpsert(0, 42, value, 100, 300);
  c.RecordLookup(3, 42, 99, 150, 200);
  c.RecordDelete(5, 43, true, 400, 500);
  c.SetInitial(15, 1);
  c.RecordRange(4, 10, 20, 7, {}, 30, 40);
  const ConsistencyReport report = c.Check();
  ASSERT_EQ(report.examples.size(), 3u);
  const std::string& lookup = report.examples[0].message;
  EXPECT_NE(lookup.find("lookup client 3 key 42 interval [150, 200]"), std::string::npos);
  EXPECT_NE(lookup.find("returned 99"), std::string::npos) << lookup;
  EXPECT_NE(lookup.find("allowed: absent, 1, 2, 3, 4, ... (9 candidates)"), std::string::npos)
      << lookup;
  const std::string& del = report.examples[1].message;
  EXPECT_NE(del.find("delete client 5 key 43 interval [400, 500]"), std::string::npos) << del;
  EXPECT_NE(del.find("existed=true"), std::string::npos) << del;
  EXPECT_NE(del.find("absent"), std::string::npos) << del;
  const std::string& range = report.examples[2].message;
  EXPECT_NE(range.find("range client 4 keys [10, 20) limit 7 interval [30, 40]"),
            std::string::npos);
  EXPECT_NE(range.find("missing key 15"), std::string::npos) << range;
}

TEST(ConsistencyCheckerTest, ExamplesAreCappedAndCheckIsRepeatable) {
  ConsistencyChecker c;
  for (uint64_t i = 0; i < 30; ++i) c.RecordLookup(0, i, i + 1, 10 * i, 10 * i + 5);
  c.RecordUpsert(0, 1000, 1, 0, 1);
  c.RecordLookup(0, 7, 3, 10, 5);  // response before invoke
  for (int round = 0; round < 2; ++round) {
    const ConsistencyReport report = c.Check();
    EXPECT_EQ(report.operations_checked, 32u);
    EXPECT_EQ(report.violations, 31u);
    ASSERT_EQ(report.examples.size(), ConsistencyReport::kMaxExamples);
    EXPECT_NE(report.examples[0].message.find("key 0 "), std::string::npos);
    EXPECT_NE(report.examples[19].message.find("key 19 "), std::string::npos);
  }
}

TEST(ConsistencyCheckerTest, ConcurrentRecordingLosesNothing) {
  constexpr uint32_t kThreads = 8;
  constexpr uint64_t kPerThread = 2000;
  ConsistencyChecker c;
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&c, t] {
      for (uint64_t i = 0; i < kPerThread; ++i) {
        const uint64_t key = t * kPerThread + i;
        c.RecordUpsert(t, key, i, 4 * i, 4 * i + 1);
        c.RecordLookup(t, key, i, 4 * i + 2, 4 * i + 3);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const ConsistencyReport report = c.Check();
  EXPECT_EQ(c.recorded(), 2 * kThreads * kPerThread);
  EXPECT_TRUE(report.ok()) << AllMessages(report);
}

// Each operation takes effect at a random point strictly inside its interval;
// results come from applying the operations to a std::map in that order, so
// the history is linearizable by construction.
enum class Kind { kUpsert, kDelete, kLookup, kRange };
struct Simulated {
  Kind kind;
  uint32_t client;
  uint64_t key, to, value, invoke, response, point;
  size_t limit;
  std::optional<uint64_t> found;
  bool existed;
  KeyValues range;
};
struct Simulation {
  uint64_t keys;
  std::map<uint64_t, uint64_t> initial, final;
  std::vector<Simulated> ops;
};

Simulation Simulate(uint64_t keys, uint64_t ops, uint32_t clients, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&rng](uint64_t n) { return rng() % n; };  // bias is irrelevant here
  Simulation sim{keys, {}, {}, {}};
  for (uint64_t key = 0; key < keys; key += 2) sim.initial[key] = key + 1'000'000'000;
  std::vector<uint64_t> clock(clients);
  for (uint64_t i = 0; i < ops; ++i) {
    Simulated op{};
    op.client = static_cast<uint32_t>(i % clients);
    const uint64_t roll = uniform(100);
    op.kind = roll < 30   ? Kind::kUpsert
              : roll < 40 ? Kind::kDelete
              : roll < 85 ? Kind::kLookup
                          : Kind::kRange;
    op.key = uniform(keys);
    op.value = i + 1;  // unique, so each returned value names one write
    op.to = op.key + 1 + uniform(std::min<uint64_t>(keys / 5, 200));
    op.limit = uniform(4) == 0 ? 0 : 1 + uniform(10);
    const uint64_t duration = 2 + (uniform(20) == 0 ? uniform(5000) : uniform(200));
    op.invoke = clock[op.client] + uniform(50);
    op.response = op.invoke + duration;
    op.point = op.invoke + 1 + uniform(duration - 1);
    clock[op.client] = op.response;
    sim.ops.push_back(op);
  }
  std::vector<Simulated*> order;
  for (Simulated& op : sim.ops) order.push_back(&op);
  std::stable_sort(order.begin(), order.end(),
                   [](const Simulated* a, const Simulated* b) { return a->point < b->point; });
  std::map<uint64_t, uint64_t>& map = sim.final = sim.initial;
  for (Simulated* op : order) {
    auto it = map.find(op->key);
    if (op->kind == Kind::kUpsert) map[op->key] = op->value;
    op->existed = it != map.end();
    if (op->kind == Kind::kDelete && op->existed) map.erase(it);
    if (op->kind == Kind::kLookup && it != map.end()) op->found = it->second;
    if (op->kind != Kind::kRange) continue;
    for (auto r = map.lower_bound(op->key); r != map.end() && r->first < op->to; ++r) {
      if (op->limit > 0 && op->range.size() == op->limit) break;
      op->range.push_back(*r);
    }
  }
  return sim;
}

// Records the bulkload, the operations and then a lookup of every key after
// all of them, which is what catches lost writes.
void Record(const Simulation& sim, ConsistencyChecker& c) {
  for (const auto& [key, value] : sim.initial) c.SetInitial(key, value);
  for (const Simulated& op : sim.ops) {
    const uint64_t s = op.invoke;
    const uint64_t e = op.response;
    if (op.kind == Kind::kUpsert) c.RecordUpsert(op.client, op.key, op.value, s, e);
    if (op.kind == Kind::kDelete) c.RecordDelete(op.client, op.key, op.existed, s, e);
    if (op.kind == Kind::kLookup) c.RecordLookup(op.client, op.key, op.found, s, e);
    if (op.kind == Kind::kRange) c.RecordRange(op.client, op.key, op.to, op.limit, op.range, s, e);
  }
  constexpr uint64_t kAfterAll = uint64_t{1} << 50;
  for (uint64_t key = 0; key < sim.keys; ++key) {
    auto it = sim.final.find(key);
    const std::optional<uint64_t> found =
        it == sim.final.end() ? kAbsent : std::optional<uint64_t>(it->second);
    c.RecordLookup(0, key, found, kAfterAll, kAfterAll + 1);
  }
}

TEST(ConsistencyCheckerTest, RandomLinearizableHistoryIsAcceptedAndCorruptionsAreFound) {
  Simulation sim = Simulate(50, 20'000, 16, 7);
  {
    ConsistencyChecker c;
    Record(sim, c);
    const ConsistencyReport report = c.Check();
    EXPECT_TRUE(report.ok()) << AllMessages(report);
    EXPECT_EQ(report.operations_checked, 20'050u);
  }
  // Values never written, so each corruption is certainly a violation.
  constexpr uint64_t kNeverWritten = uint64_t{1} << 62;
  int lookups = 0;
  int ranges = 0;
  for (size_t i = 0; i < sim.ops.size(); i += 97) {
    Simulated& op = sim.ops[i];
    if (op.kind == Kind::kLookup && lookups < 5) {
      op.found = kNeverWritten;
      ++lookups;
    } else if (op.kind == Kind::kRange && !op.range.empty() && ranges < 3) {
      op.range.back().second = kNeverWritten;
      ++ranges;
    }
  }
  ASSERT_EQ(lookups + ranges, 8);
  sim.final.begin()->second = kNeverWritten;  // and a final lookup
  ConsistencyChecker c;
  Record(sim, c);
  const ConsistencyReport report = c.Check();
  EXPECT_EQ(report.violations, 9u) << AllMessages(report);
  for (const ConsistencyViolation& v : report.examples) {
    EXPECT_NE(v.message.find(std::to_string(kNeverWritten)), std::string::npos) << v.message;
  }
}

// Not a timed assertion: prints how long checking a large history takes.
TEST(ConsistencyCheckerTest, MillionOperationHistoryChecksQuickly) {
  const Simulation sim = Simulate(100'000, 1'000'000, 64, 11);
  ConsistencyChecker c;
  Record(sim, c);
  const auto start = std::chrono::steady_clock::now();
  const ConsistencyReport report = c.Check();
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(report.ok()) << AllMessages(report);
  std::cout << "checked " << report.operations_checked << " operations in " << elapsed.count()
            << " s\n";
  RecordProperty("check_seconds", std::to_string(elapsed.count()));
}

}  // namespace
}  // namespace dmbench::indexes
