// Head-of-line blocking at a responder's processing unit: an atomic holds
// its unit from when it reaches the unit, not from when it was posted.
// Requests of other QPs that reach the unit first go ahead of it, and an
// atomic posted later that gets there first takes the unit first.
//
// The set-up is the paper's: machines that carry a memory server and a
// compute server behind one NIC. A remote thread's verbs cross a link that a
// loopback thread's do not, so a loopback verb posted a little later reaches
// the unit earlier.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "harness/rdma/sim/nic_model.h"
#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::DefaultProfile;

constexpr uint32_t kThreads = 16;

Topology TwoMachines() {
  Topology topology = test_support::SmallTopology(2, 2, 1);
  topology.threads_per_compute_server = kThreads;
  topology.colocated = true;
  return topology;
}

// One verb against memory server 0, posted at `post_ns` from a thread of
// `compute_server` (1: remote; 0: loopback).
struct Actor {
  uint32_t compute_server;
  uint64_t post_ns;
  bool atomic;      // a CAS, or else an 8-byte READ
  uint64_t offset;  // what it targets
};

// Threads of the two actors' compute servers whose QPs to memory server 0
// share a processing unit.
std::pair<uint32_t, uint32_t> ThreadsSharingAUnit(const Actor& first, const Actor& second,
                                                  uint64_t units) {
  for (uint32_t a = 0; a < kThreads; ++a) {
    for (uint32_t b = 0; b < kThreads; ++b) {
      const uint32_t first_thread = first.compute_server * kThreads + a;
      const uint32_t second_thread = second.compute_server * kThreads + b;
      if (first_thread != second_thread &&
          ProcessingUnitOf(first_thread, 0, units) == ProcessingUnitOf(second_thread, 0, units)) {
        return {a, b};
      }
    }
  }
  ADD_FAILURE() << "no two threads share a unit";
  return {0, 0};
}

// How long each actor's verb took, run together or, with `alone`, only the
// actor of that index (the other's thread stays idle).
std::pair<uint64_t, uint64_t> RunActors(const Actor& first, const Actor& second,
                                        std::optional<int> alone = std::nullopt) {
  const NicProfile profile = DefaultProfile();
  // (Not a structured binding: clang 14 cannot capture one in a lambda.)
  const std::pair<uint32_t, uint32_t> threads =
      ThreadsSharingAUnit(first, second, profile.processing_units);
  const uint32_t first_thread = threads.first, second_thread = threads.second;
  auto cluster = test_support::MakeCluster(TwoMachines(), profile);
  uint64_t took[2] = {0, 0};
  cluster->Run([&](Client& client) {
    const ClientLocation where = client.location();
    for (int i = 0; i < 2; ++i) {
      const Actor& actor = i == 0 ? first : second;
      const uint32_t thread = i == 0 ? first_thread : second_thread;
      if (where.compute_server != actor.compute_server || where.thread != thread) continue;
      if (alone && *alone != i) return;
      client.SleepUntil(actor.post_ns);
      const uint64_t start = client.NowNanoseconds();
      const GlobalAddress target = GlobalAddress::Host(0, actor.offset);
      if (actor.atomic) {
        client.CompareAndSwap(target, 0, 1);
      } else {
        uint64_t word = 0;
        client.Read(target, &word, sizeof(word));
      }
      took[i] = client.NowNanoseconds() - start;
      return;
    }
  });
  return {took[0], took[1]};
}

// Different atomic buckets, so that only the unit is shared.
constexpr uint64_t kFirstWord = 64;
constexpr uint64_t kSecondWord = 128;
// A loopback verb posted this much later reaches the unit first: it skips
// both ends of a link and its serialization.
constexpr uint64_t kLoopbackDelayNs = 200;

TEST(ProcessingUnitHolding, AReadThatReachesTheUnitFirstDoesNotWaitForAnAtomicPostedEarlier) {
  const Actor cas{1, 0, true, kFirstWord};
  const Actor read{0, kLoopbackDelayNs, false, kSecondWord};
  const uint64_t alone = RunActors(cas, read, 1).second;
  const auto [cas_took, read_took] = RunActors(cas, read);
  ASSERT_GT(alone, 0u);
  ASSERT_GT(cas_took, 0u);
  EXPECT_EQ(read_took, alone) << "the READ reached the unit before the CAS and owes it nothing";
}

// What the mechanism is for: a READ of another QP that reaches the unit
// while the atomic holds it waits for the atomic's answer.
TEST(ProcessingUnitHolding, AReadThatReachesTheUnitAfterTheAtomicWaitsForItsAnswer) {
  const Actor cas{1, 0, true, kFirstWord};
  const Actor read{1, 50, false, kSecondWord};
  const uint64_t alone = RunActors(cas, read, 1).second;
  const auto [cas_took, read_took] = RunActors(cas, read);
  ASSERT_GT(cas_took, 0u);
  EXPECT_GT(read_took, alone + 200) << "it should wait most of the CAS's PCIe read";
}

TEST(ProcessingUnitHolding, AnAtomicThatReachesTheUnitFirstTakesItFirst) {
  const Actor remote{1, 0, true, kFirstWord};
  const Actor loopback{0, kLoopbackDelayNs, true, kSecondWord};
  const uint64_t remote_alone = RunActors(remote, loopback, 0).first;
  const uint64_t loopback_alone = RunActors(remote, loopback, 1).second;
  const auto [remote_took, loopback_took] = RunActors(remote, loopback);
  EXPECT_EQ(loopback_took, loopback_alone)
      << "the loopback CAS reached the unit first and waits for nobody";
  EXPECT_GT(remote_took, remote_alone)
      << "the remote CAS reaches the unit while the loopback one holds it";
}

// The displaced atomic keeps its QP's posting order: a WRITE of its word
// that its thread's other coroutine posts after it still lands after it.
TEST(ProcessingUnitHolding, AnOvertakenAtomicStillPrecedesWhatItsQueuePairPostedLater) {
  const Actor remote{1, 0, true, kFirstWord};
  const Actor loopback{0, kLoopbackDelayNs, true, kSecondWord};
  const NicProfile profile = DefaultProfile();
  const std::pair<uint32_t, uint32_t> threads =
      ThreadsSharingAUnit(remote, loopback, profile.processing_units);
  const uint32_t remote_thread = threads.first, loopback_thread = threads.second;
  Topology topology = TwoMachines();
  topology.coroutines_per_thread = 2;
  auto cluster = test_support::MakeCluster(topology, profile);
  uint64_t remote_saw = 99;
  uint64_t loopback_took = 0;
  cluster->Run([&](Client& client) {
    const ClientLocation where = client.location();
    if (where.compute_server == 1 && where.thread == remote_thread) {
      if (where.coroutine == 0) {
        remote_saw = client.CompareAndSwap(GlobalAddress::Host(0, kFirstWord), 0, 1);
      } else {
        const uint64_t five = 5;
        client.Write(GlobalAddress::Host(0, kFirstWord), &five, sizeof(five));
      }
    } else if (where.compute_server == 0 && where.thread == loopback_thread &&
               where.coroutine == 0) {
      client.SleepUntil(kLoopbackDelayNs);
      const uint64_t start = client.NowNanoseconds();
      client.CompareAndSwap(GlobalAddress::Host(0, kSecondWord), 0, 1);
      loopback_took = client.NowNanoseconds() - start;
    }
  });
  EXPECT_EQ(loopback_took, RunActors(remote, loopback, 1).second)
      << "the loopback CAS should have overtaken the remote one";
  EXPECT_EQ(remote_saw, 0u);
  EXPECT_EQ(cluster->memory(0, MemorySpace::kHost).ReadWord(kFirstWord), 5u);
}

// Posting order on a QP under load: each thread's coroutines share its QP
// and interleave CASes on a few hot words (parked, holding units, overtaking
// one another) with WRITEs of a running count to the thread's own word, each
// behind a CAS in its batch, and READs of that word. A READ sees exactly the
// WRITEs its QP posted before it, and the word ends at the last count.
// Also with units off, where only a QP's own atomic holds it up.
void ExpectPostingOrderUnderContendedAtomics(const NicProfile& profile) {
  Topology topology = TwoMachines();
  topology.threads_per_compute_server = 8;
  topology.coroutines_per_thread = 3;
  auto cluster = test_support::MakeCluster(topology, profile);
  const uint32_t threads = topology.threads();
  std::vector<uint64_t> last_count(threads, 0);
  uint64_t reads = 0;
  uint64_t stale_reads = 0;
  cluster->Run([&](Client& client) {
    const ClientLocation where = client.location();
    const uint32_t thread =
        where.compute_server * topology.threads_per_compute_server + where.thread;
    const GlobalAddress own = GlobalAddress::Host(0, 4096 + 64 * uint64_t{thread});
    for (uint64_t round = 0; round < 200; ++round) {
      const GlobalAddress hot = GlobalAddress::Host(0, 8 * ((round + where.coroutine) % 3));
      uint64_t count = ++last_count[thread];
      WorkRequest batch[2] = {
          {.verb = Verb::kCompareAndSwap, .remote = hot, .length = 8, .swap = 1},
          {.verb = Verb::kWrite, .remote = own, .local = &count, .length = 8}};
      client.Execute(batch);
      const uint64_t posted_before = last_count[thread];
      uint64_t seen = 0;
      client.Read(own, &seen, sizeof(seen));
      ++reads;
      if (seen != posted_before) ++stale_reads;
      client.CompareAndSwap(hot, 1, 0);
    }
  });
  EXPECT_EQ(stale_reads, 0u) << "of " << reads << " READs, these saw other than the WRITEs "
                             << "their QP posted before them";
  for (uint32_t thread = 0; thread < threads; ++thread) {
    EXPECT_EQ(cluster->memory(0, MemorySpace::kHost).ReadWord(4096 + 64 * uint64_t{thread}),
              last_count[thread])
        << "thread " << thread << ": an earlier WRITE of its QP landed after a later one";
  }
}

TEST(ProcessingUnitHolding, QueuePairsKeepPostingOrderUnderContendedAtomics) {
  NicProfile profile = DefaultProfile();
  profile.atomic_parking_slots = 4;  // few: atomics hold units, and overtake
  ExpectPostingOrderUnderContendedAtomics(profile);
  profile.processing_units = 0;
  profile.atomic_parking_slots = 0;
  ExpectPostingOrderUnderContendedAtomics(profile);
}

}  // namespace
}  // namespace dmbench::rdma::sim
