// Ordering of the work requests of one batch, as other clients observe it.
//
// The lock-release idiom of both indexes depends on it: a writer posts
// [WRITE node, WRITE lock := released] as one batch and relies on the QP to
// make the node visible before anyone can see the lock released.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::MakeCluster;
using test_support::SmallTopology;

constexpr uint64_t kNodeOffset = 1 << 20;
constexpr uint64_t kAreaOffset = 2 << 20;
constexpr uint32_t kNodeBytes = 1024;
constexpr size_t kNodeWords = kNodeBytes / 8;
// Large enough that its DMA outlasts a reader's lock-to-node round trip, so a
// release that overtook it would be caught.
constexpr uint32_t kLargeNodeBytes = 64 << 10;
constexpr uint64_t kRounds = 200;
// The lock word holds (round << 1) | held, so a reader that sees it released
// also learns which round's node it must at least see.
constexpr uint64_t kHeld = 1;
constexpr uint32_t kWriterServer = 1;

enum class WriterOrder {
  kNodeThenReleaseInOneBatch,  // the idiom under test
  // The bug the idiom avoids: release first, node second, each its own round
  // trip. (Reversing the two inside one batch opens a window of only ~100 ns,
  // shorter than any reader's lock-read-to-node-read round trip.)
  kReleaseThenNodeUnbatched,
};

struct Observations {
  uint64_t held = 0;         // reads of the lock word that found it held
  uint64_t released = 0;     // ...that found it released after some round
  uint64_t stale_nodes = 0;  // released after round r, yet a node word < r
};

// Machine i carries memory server i and compute server i, so readers on
// compute server 0 reach the node over loopback (short round trips) and those
// on compute server 2 over the network; the writer sits on compute server 1.
Topology LockTopology() {
  Topology topology;
  topology.memory_servers = 3;
  topology.compute_servers = 3;
  topology.threads_per_compute_server = 2;
  topology.coroutines_per_thread = 4;
  topology.colocated = true;
  topology.host_memory_mib = 64;
  topology.chunk_mib = 1;
  return topology;
}

void WriteRounds(Client& client, GlobalAddress lock, WriterOrder order, uint32_t node_bytes) {
  const GlobalAddress node = GlobalAddress::Host(0, kNodeOffset);
  std::vector<uint64_t> contents(node_bytes / 8);
  for (uint64_t round = 1; round <= kRounds; ++round) {
    const uint64_t acquired = client.CompareAndSwap(lock, (round - 1) << 1, (round << 1) | kHeld);
    ASSERT_EQ(acquired, (round - 1) << 1) << "round " << round;
    contents.assign(contents.size(), round);
    uint64_t released = round << 1;
    WorkRequest write_node{
        .verb = Verb::kWrite, .remote = node, .local = contents.data(), .length = node_bytes};
    WorkRequest release{.verb = Verb::kWrite, .remote = lock, .local = &released, .length = 8};
    if (order == WriterOrder::kNodeThenReleaseInOneBatch) {
      WorkRequest batch[2] = {write_node, release};
      client.Execute(batch);
    } else {
      client.Write(lock, &released, 8);
      client.Write(node, contents.data(), node_bytes);
    }
  }
}

Observations RunLockProtocol(GlobalAddress lock, WriterOrder order,
                             uint32_t node_bytes = kNodeBytes) {
  auto cluster = MakeCluster(LockTopology());
  bool writer_done = false;
  Observations seen;
  cluster->Run([&](Client& client) {
    if (client.location().compute_server == kWriterServer) {
      if (client.location().thread == 0 && client.location().coroutine == 0) {
        WriteRounds(client, lock, order, node_bytes);
        writer_done = true;
      }
      return;
    }
    // A WRITE's cachelines land in ascending order, so the node's last KiB is
    // the last part of it to become visible: that is what readers check.
    const GlobalAddress probe = GlobalAddress::Host(0, kNodeOffset + node_bytes - kNodeBytes);
    std::vector<uint64_t> node(kNodeWords);
    while (!writer_done) {
      uint64_t word = 0;
      client.Read(lock, &word, 8);
      if ((word & kHeld) != 0) {
        ++seen.held;
        continue;
      }
      const uint64_t round = word >> 1;
      if (round == 0) continue;
      ++seen.released;
      client.Read(probe, node.data(), kNodeBytes);
      for (uint64_t value : node) {
        if (value < round) {
          ++seen.stale_nodes;
          break;
        }
      }
    }
  });
  return seen;
}

class BatchOrdering : public ::testing::TestWithParam<MemorySpace> {
 protected:
  GlobalAddress Lock() const {
    return GetParam() == MemorySpace::kHost ? GlobalAddress::Host(0, 4096)
                                            : GlobalAddress::OnChip(0, 0);
  }
};

TEST_P(BatchOrdering, ReleaseIsNeverSeenBeforeTheNodeWriteBeforeIt) {
  const Observations seen = RunLockProtocol(Lock(), WriterOrder::kNodeThenReleaseInOneBatch);
  EXPECT_EQ(seen.stale_nodes, 0u);
  // The check above ran often, and readers did race with the writer.
  EXPECT_GT(seen.released, 1000u);
  EXPECT_GT(seen.held, 1000u);
}

TEST_P(BatchOrdering, ReleaseIsNeverSeenBeforeALargeNodeWriteBeforeIt) {
  const Observations seen =
      RunLockProtocol(Lock(), WriterOrder::kNodeThenReleaseInOneBatch, kLargeNodeBytes);
  EXPECT_EQ(seen.stale_nodes, 0u);
  EXPECT_GT(seen.released, 200u);
  EXPECT_GT(seen.held, 200u);
}

// The detector works: with the release made visible first, readers do catch
// a released lock whose node is still the previous round's.
TEST_P(BatchOrdering, ReleaseBeforeNodeWithoutBatchIsSeenWithStaleNode) {
  const Observations seen = RunLockProtocol(Lock(), WriterOrder::kReleaseThenNodeUnbatched);
  EXPECT_GT(seen.stale_nodes, 100u);
  EXPECT_GT(seen.released, 1000u);
}

INSTANTIATE_TEST_SUITE_P(LockSpaces, BatchOrdering,
                         ::testing::Values(MemorySpace::kHost, MemorySpace::kOnChip),
                         [](const ::testing::TestParamInfo<MemorySpace>& info) {
                           return info.param == MemorySpace::kHost ? "HostLock" : "OnChipLock";
                         });

// Same-address ordering inside one batch, as the batch's own client sees it.
class BatchSameAddress : public ::testing::TestWithParam<MemorySpace> {
 protected:
  GlobalAddress Area() const {
    return GetParam() == MemorySpace::kHost ? GlobalAddress::Host(0, kAreaOffset)
                                            : GlobalAddress::OnChip(0, 1024);
  }
  // Fills the 1 KiB at Area() with `value`, outside simulated time.
  void Fill(SimCluster& cluster, uint8_t value) const {
    const std::vector<uint8_t> bytes(kNodeBytes, value);
    cluster.memory(0, GetParam()).Poke(Area().offset, bytes.data(), kNodeBytes);
  }
  uint8_t ByteAt(SimCluster& cluster, uint64_t index) const {
    uint8_t byte = 0;
    cluster.memory(0, GetParam()).Peek(Area().offset + index, &byte, 1);
    return byte;
  }
};

TEST_P(BatchSameAddress, ReadAfterWriteSeesTheWrite) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  Fill(*cluster, 0x11);
  cluster->Run([&](Client& client) {
    std::vector<uint8_t> written(kNodeBytes, 0x22);
    std::vector<uint8_t> read(kNodeBytes, 0);
    WorkRequest batch[2] = {
        {.verb = Verb::kWrite, .remote = Area(), .local = written.data(), .length = kNodeBytes},
        {.verb = Verb::kRead, .remote = Area(), .local = read.data(), .length = kNodeBytes}};
    client.Execute(batch);
    EXPECT_EQ(read, written);
  });
}

TEST_P(BatchSameAddress, WriteAfterReadIsNotSeenByTheRead) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  Fill(*cluster, 0x11);
  cluster->Run([&](Client& client) {
    std::vector<uint8_t> written(kNodeBytes, 0x22);
    std::vector<uint8_t> read(kNodeBytes, 0);
    WorkRequest batch[2] = {
        {.verb = Verb::kRead, .remote = Area(), .local = read.data(), .length = kNodeBytes},
        {.verb = Verb::kWrite, .remote = Area(), .local = written.data(), .length = kNodeBytes}};
    client.Execute(batch);
    EXPECT_EQ(read, std::vector<uint8_t>(kNodeBytes, 0x11));
  });
  // The WRITE did take effect, after the READ.
  EXPECT_EQ(ByteAt(*cluster, 0), 0x22);
  EXPECT_EQ(ByteAt(*cluster, kNodeBytes - 1), 0x22);
}

TEST_P(BatchSameAddress, LaterWriteOfTheBatchWins) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  cluster->Run([&](Client& client) {
    std::vector<uint8_t> first(kNodeBytes, 0x33);
    std::vector<uint8_t> second(kNodeBytes, 0x44);
    WorkRequest batch[2] = {
        {.verb = Verb::kWrite, .remote = Area(), .local = first.data(), .length = kNodeBytes},
        {.verb = Verb::kWrite, .remote = Area(), .local = second.data(), .length = kNodeBytes}};
    client.Execute(batch);
  });
  EXPECT_EQ(ByteAt(*cluster, 0), 0x44);
  EXPECT_EQ(ByteAt(*cluster, kNodeBytes - 1), 0x44);
}

TEST_P(BatchSameAddress, ReadsAroundAnAtomicSeeBeforeAndAfter) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  cluster->Run([&](Client& client) {
    const uint64_t initial = 40;
    client.Write(Area(), &initial, 8);
    uint64_t before = 0, after = 0;
    WorkRequest batch[3] = {
        {.verb = Verb::kRead, .remote = Area(), .local = &before, .length = 8},
        {.verb = Verb::kFetchAndAdd, .remote = Area(), .length = 8, .compare_or_add = 2},
        {.verb = Verb::kRead, .remote = Area(), .local = &after, .length = 8}};
    client.Execute(batch);
    EXPECT_EQ(before, 40u);
    EXPECT_EQ(batch[1].old_value, 40u);
    EXPECT_EQ(after, 42u);
  });
}

INSTANTIATE_TEST_SUITE_P(Spaces, BatchSameAddress,
                         ::testing::Values(MemorySpace::kHost, MemorySpace::kOnChip),
                         [](const ::testing::TestParamInfo<MemorySpace>& info) {
                           return info.param == MemorySpace::kHost ? "Host" : "OnChip";
                         });

}  // namespace
}  // namespace dmbench::rdma::sim
