// The agenda pops events by time, and events at one time in the order they
// were pushed: the simulation's determinism rests on it.
#include "harness/rdma/sim/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "harness/util/random.h"

namespace dmbench::rdma::sim {
namespace {

TEST(EventQueue, PopsByTimeThenInPushOrder) {
  // Pushes and pops interleaved at random, over few distinct times so that
  // ties are common; the reference is a stable sort of what is pending.
  Random random(7);
  EventQueue queue;
  struct Pending {
    SimTime time;
    uint32_t id;
  };
  std::vector<Pending> pending;
  const auto earliest_pending = [&pending] {
    return std::min_element(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
      return a.time != b.time ? a.time < b.time : a.id < b.id;
    });
  };
  uint32_t next_id = 0;
  SimTime now = 0;
  for (int step = 0; step < 20000; ++step) {
    if (pending.empty() || random.Uniform(3) != 0) {
      const SimTime time = now + static_cast<SimTime>(random.Uniform(8));
      queue.Push(time, EventKind::kResume, nullptr, next_id);
      pending.push_back({time, next_id++});
      continue;
    }
    const auto earliest = earliest_pending();
    const Event event = queue.Pop();
    ASSERT_EQ(event.time, earliest->time) << "step " << step;
    ASSERT_EQ(event.argument, earliest->id) << "step " << step;
    now = event.time;
    pending.erase(earliest);
  }
  while (!pending.empty()) {
    const auto earliest = earliest_pending();
    const Event event = queue.Pop();
    ASSERT_EQ(event.argument, earliest->id);
    pending.erase(earliest);
  }
  EXPECT_TRUE(queue.Empty());
  EXPECT_EQ(queue.pushed(), next_id);
}

TEST(EventQueue, OrdersTimesOverTheirWholeRange) {
  // Times compare as signed numbers: the sign bit must not make a negative
  // time late or the largest time early.
  EventQueue queue;
  const SimTime times[] = {INT64_MAX, 3, -5, INT64_MIN, 0, INT64_MAX, -1};
  uint32_t id = 0;
  for (const SimTime time : times) queue.Push(time, EventKind::kResume, nullptr, id++);
  const std::vector<std::pair<SimTime, uint32_t>> expected = {
      {INT64_MIN, 3}, {-5, 2}, {-1, 6}, {0, 4}, {3, 1}, {INT64_MAX, 0}, {INT64_MAX, 5}};
  for (const auto& [time, argument] : expected) {
    const Event event = queue.Pop();
    EXPECT_EQ(event.time, time);
    EXPECT_EQ(event.argument, argument);
  }
  EXPECT_TRUE(queue.Empty());
}

TEST(EventQueue, CarriesEveryFieldOfAnEvent) {
  EventQueue queue;
  queue.Push(5, EventKind::kBucketRelease, nullptr, 4095, 3);
  queue.Push(2, EventKind::kExecuteRead, nullptr, 9, 1);
  const Event first = queue.Pop();
  EXPECT_EQ(first.time, 2);
  EXPECT_EQ(first.kind, EventKind::kExecuteRead);
  EXPECT_EQ(first.argument, 9u);
  EXPECT_EQ(first.group, 1);
  EXPECT_EQ(first.sequence, 1u);
  const Event second = queue.Pop();
  EXPECT_EQ(second.kind, EventKind::kBucketRelease);
  EXPECT_EQ(second.argument, 4095u);
  EXPECT_EQ(second.group, 3);
}

TEST(EventQueue, PopsInOrderWhateverTopAndTheTimeSpanDo) {
  // As the simulation uses it: after each pop a look at the next event
  // (Top), then pushes at or after the popped time, some before the event
  // Top showed, some up to 2^40 ps ahead, ties common. The reference is a
  // stable sort of what is pending.
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    Random random(seed);
    EventQueue queue;
    std::vector<std::pair<SimTime, uint32_t>> pending;  // (time, id), ids in push order
    uint32_t next_id = 0;
    SimTime now = 1'000'000;
    const auto push = [&](SimTime time) {
      queue.Push(time, EventKind::kResume, nullptr, next_id);
      pending.push_back({time, next_id++});
    };
    for (int i = 0; i < 50; ++i) push(now + static_cast<SimTime>(random.Uniform(1000)));
    for (int step = 0; step < 30000 && !pending.empty(); ++step) {
      const auto earliest = std::min_element(pending.begin(), pending.end());
      const Event event = queue.Pop();
      ASSERT_EQ(event.time, earliest->first) << "seed " << seed << ", step " << step;
      ASSERT_EQ(event.argument, earliest->second) << "seed " << seed << ", step " << step;
      now = event.time;
      pending.erase(earliest);
      if (!queue.Empty()) {
        const auto next = std::min_element(pending.begin(), pending.end());
        ASSERT_EQ(queue.Top().argument, next->second) << "seed " << seed << ", step " << step;
      }
      // One push a pop on average, two while few are pending.
      for (uint64_t pushes = pending.size() < 30 ? 2 : random.Uniform(3); pushes > 0; --pushes) {
        const uint64_t kind = random.Uniform(10);
        const SimTime ahead = kind == 0   ? 0
                              : kind == 1 ? static_cast<SimTime>(random.Uniform(1ull << 40))
                                          : static_cast<SimTime>(random.Uniform(64));
        push(now + ahead);
      }
    }
    EXPECT_GT(next_id, 30000u);
  }
}

TEST(EventQueue, PopsInOrderAtEveryScaleOfTimeAhead) {
  // Pushes that land up to 2^k ps ahead of the last pop, for every k to 40,
  // and a fifth up to sixteen times further: whatever span of time a queue
  // handles at once, or keeps apart, some k makes events cross it often.
  // One push in fifty lands as far behind the last pop, which the simulation
  // never does and the queue allows.
  for (int scale = 0; scale <= 40; ++scale) {
    Random random(static_cast<uint64_t>(scale) + 1);
    EventQueue queue;
    std::vector<std::pair<SimTime, uint32_t>> pending;  // (time, id), ids in push order
    uint32_t next_id = 0;
    SimTime now = 0;
    const auto push = [&] {
      const uint64_t span = uint64_t{1} << (random.Uniform(5) == 0 ? scale + 4 : scale);
      const auto distance = static_cast<SimTime>(random.Uniform(span));
      const SimTime time = random.Uniform(50) == 0 ? now - distance : now + distance;
      queue.Push(time, EventKind::kResume, nullptr, next_id);
      pending.push_back({time, next_id++});
    };
    for (int i = 0; i < 40; ++i) push();
    for (int step = 0; step < 1500; ++step) {
      const auto earliest = std::min_element(pending.begin(), pending.end());
      ASSERT_EQ(queue.Top().argument, earliest->second) << "scale " << scale << ", step " << step;
      const Event event = queue.Pop();
      ASSERT_EQ(event.time, earliest->first) << "scale " << scale << ", step " << step;
      ASSERT_EQ(event.argument, earliest->second) << "scale " << scale << ", step " << step;
      now = event.time;
      pending.erase(earliest);
      for (uint64_t pushes = pending.size() < 20 ? 2 : random.Uniform(3); pushes > 0; --pushes) {
        push();
      }
    }
  }
}

TEST(EventQueue, KeepsEachEventsFieldsWhileThousandsArePending) {
  // Thousands pending at once (the paper's 176 clients keep a few hundred),
  // pushed in an order unrelated to their times, then popped with pushes in
  // between: each pop must bring back the fields pushed with its time, also
  // once the queue reuses what earlier pops freed.
  Random random(11);
  EventQueue queue;
  std::vector<std::pair<SimTime, uint32_t>> pending;  // (time, id), ids in push order
  uint32_t next_id = 0;
  const auto push = [&](SimTime time) {
    queue.Push(time, static_cast<EventKind>(next_id % 7), nullptr, next_id,
               static_cast<uint16_t>(next_id * 31));
    pending.push_back({time, next_id++});
  };
  for (int i = 0; i < 5000; ++i) push(static_cast<SimTime>(random.Uniform(1'000'000)));
  SimTime now = 0;
  while (!pending.empty()) {
    const auto earliest = std::min_element(pending.begin(), pending.end());
    const Event event = queue.Pop();
    ASSERT_EQ(event.time, earliest->first);
    ASSERT_EQ(event.argument, earliest->second);
    ASSERT_EQ(event.sequence, earliest->second);
    ASSERT_EQ(event.kind, static_cast<EventKind>(earliest->second % 7));
    ASSERT_EQ(event.group, static_cast<uint16_t>(earliest->second * 31));
    now = event.time;
    pending.erase(earliest);
    if (next_id < 8000) push(now + static_cast<SimTime>(random.Uniform(1'000'000)));
  }
  EXPECT_TRUE(queue.Empty());
}

}  // namespace
}  // namespace dmbench::rdma::sim
