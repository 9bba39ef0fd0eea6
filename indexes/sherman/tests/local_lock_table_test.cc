// The local lock table's hand-off on the simulated fabric: FIFO (or in a
// drawn order without wait queues), and slowed
// by the waiters that spin, one per thread (a thread's waiting coroutines
// take turns on its core).
#include "indexes/sherman/local_lock_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::indexes::sherman {
namespace {

constexpr uint64_t kLock = 7;

struct HandOff {
  std::vector<uint32_t> order;  // client indexes, in the order they got the lock
  uint64_t first_handoff_ns = 0;
};

// Client 0 takes the lock, lets every other client queue, then releases;
// each waiter holds the lock briefly and releases in turn.
HandOff Measure(uint32_t threads, uint32_t coroutines, double spinner_ns,
                LocalWaitOrder order = LocalWaitOrder::kFifo) {
  rdma::sim::NicProfile profile = rdma::sim::test_support::DefaultProfile();
  profile.cpu_lock_spinner_ns = spinner_ns;
  rdma::Topology topology = rdma::sim::test_support::SmallTopology(1, 1, coroutines);
  topology.threads_per_compute_server = threads;
  auto cluster = rdma::sim::test_support::MakeCluster(topology, profile);
  LocalLockTable table(order);
  HandOff result;
  uint64_t released_at = 0;
  cluster->Run([&](rdma::Client& client) {
    if (client.location().index == 0) {
      table.Acquire(client, kLock);
      client.ChargeCpu(100'000);  // everyone else queues meanwhile
      client.Yield();
      released_at = client.NowNanoseconds();
      table.Release(client, kLock, false);
      return;
    }
    client.Yield();
    table.Acquire(client, kLock);
    if (result.order.empty()) result.first_handoff_ns = client.NowNanoseconds() - released_at;
    result.order.push_back(client.location().index);
    client.ChargeCpu(100);
    table.Release(client, kLock, false);
  });
  return result;
}

TEST(LocalLockTable, EveryWaiterGetsTheLockOnce) {
  for (LocalWaitOrder order : {LocalWaitOrder::kFifo, LocalWaitOrder::kUnordered}) {
    std::vector<uint32_t> order_got = Measure(2, 4, 31, order).order;
    std::sort(order_got.begin(), order_got.end());
    EXPECT_EQ(order_got, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7}));
  }
}

// With wait queues the waiters are served in the order they queued; without
// them in an order drawn by the table, the same on every run.
TEST(LocalLockTable, WithoutWaitQueuesAnyWaiterMayComeNext) {
  const std::vector<uint32_t> fifo = Measure(8, 1, 0, LocalWaitOrder::kFifo).order;
  const std::vector<uint32_t> unordered = Measure(8, 1, 0, LocalWaitOrder::kUnordered).order;
  EXPECT_TRUE(std::is_sorted(fifo.begin(), fifo.end()));
  EXPECT_FALSE(std::is_sorted(unordered.begin(), unordered.end()));
  EXPECT_EQ(unordered, Measure(8, 1, 0, LocalWaitOrder::kUnordered).order);
}

// 3 threads x 4 coroutines: the holder's thread is busy until it releases,
// so the 8 coroutines of the other two queue; after the first is granted, 7
// still wait, on 2 threads: the hand-off pays for 2 spinners, not 7.
TEST(LocalLockTable, SpinnersAreThreadsNotCoroutines) {
  constexpr double kSpinnerNs = 1000;
  const uint64_t spun = Measure(3, 4, kSpinnerNs).first_handoff_ns;
  const uint64_t free = Measure(3, 4, 0).first_handoff_ns;
  EXPECT_NEAR(static_cast<double>(spun - free), 2 * kSpinnerNs, 1);
  // With a thread per waiter, every waiter spins.
  const uint64_t threads_spun = Measure(8, 1, kSpinnerNs).first_handoff_ns;
  const uint64_t threads_free = Measure(8, 1, 0).first_handoff_ns;
  EXPECT_NEAR(static_cast<double>(threads_spun - threads_free), 6 * kSpinnerNs, 1);
}

// A lock released with nobody waiting is forgotten and its slot reused: the
// next to take it gets no handover and a handover count from zero, and a lock
// taken meanwhile is a lock of its own.
TEST(LocalLockTable, AFreedLockStartsAfresh) {
  constexpr uint64_t kOther = 8;
  auto cluster =
      rdma::sim::test_support::MakeCluster(rdma::sim::test_support::SmallTopology(1, 1, 4));
  LocalLockTable table;
  std::vector<bool> handed_over(4);
  bool may_hand_over_again = false;
  cluster->Run([&](rdma::Client& client) {
    const uint32_t me = client.location().index;
    switch (me) {
      case 0:  // holds the lock, then hands it (and the global one) to client 1
        handed_over[0] = table.Acquire(client, kLock);
        client.SleepUntil(10'000);
        table.Release(client, kLock, /*hand_over=*/true);
        break;
      case 1:  // takes another lock while it waits, then frees both
        client.SleepUntil(1'000);
        EXPECT_FALSE(table.Acquire(client, kOther));
        handed_over[1] = table.Acquire(client, kLock);
        table.Release(client, kOther, false);
        table.Release(client, kLock, false);
        break;
      case 2:  // takes the freed lock; client 3 queues behind
        client.SleepUntil(20'000);
        handed_over[2] = table.Acquire(client, kLock);
        client.SleepUntil(30'000);
        may_hand_over_again = table.ShouldHandOver(kLock, 1);
        table.Release(client, kLock, false);
        break;
      default:
        client.SleepUntil(25'000);
        handed_over[3] = table.Acquire(client, kLock);
        table.Release(client, kLock, false);
        break;
    }
  });
  EXPECT_EQ(handed_over, (std::vector<bool>{false, true, false, false}));
  EXPECT_TRUE(may_hand_over_again);
}

}  // namespace
}  // namespace dmbench::indexes::sherman
