// Remote allocation: chunks taken with a fetch-and-add on each memory
// server's counter (memory_layout.h), carved locally per thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "harness/rdma/chunk_allocator.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/memory_layout.h"
#include "harness/rdma/sim/sim_cluster.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::rdma {
namespace {

using sim::test_support::MakeCluster;

constexpr uint64_t kMiB = 1 << 20;

Topology Shape(uint32_t memory_servers, uint32_t threads, uint32_t coroutines,
               uint64_t host_memory_mib) {
  Topology topology;
  topology.memory_servers = memory_servers;
  topology.compute_servers = 2;
  topology.threads_per_compute_server = threads;
  topology.coroutines_per_thread = coroutines;
  topology.colocated = false;
  topology.host_memory_mib = host_memory_mib;
  topology.chunk_mib = 1;
  return topology;
}

struct Allocation {
  GlobalAddress address;
  uint64_t bytes;  // as requested
  uint32_t thread;
};

// Threads index allocators densely over the cluster, like clients' threads.
uint32_t ThreadIndex(const Client& client, const Topology& topology) {
  return client.location().compute_server * topology.threads_per_compute_server +
         client.location().thread;
}

TEST(ChunkAllocator, AllocationsOfAllThreadsAreAlignedDisjointAndInsideMemory) {
  const Topology topology = Shape(3, 2, 2, 16);
  auto cluster = MakeCluster(topology);
  const uint64_t sizes[] = {1, 24, 64, 100, 1000, 4096, 30000, 65};
  std::vector<Allocation> allocations;
  std::vector<uint64_t> chunks_taken(topology.threads(), 0);
  cluster->Run([&](Client& client) {
    for (int i = 0; i < 200; ++i) {
      const uint64_t bytes = sizes[(i + client.location().index) % std::size(sizes)];
      allocations.push_back(
          {client.allocator().Allocate(client, bytes), bytes, ThreadIndex(client, topology)});
    }
    chunks_taken[ThreadIndex(client, topology)] = client.allocator().chunks_taken();
  });
  ASSERT_EQ(allocations.size(), topology.clients() * 200u);

  for (const Allocation& allocation : allocations) {
    EXPECT_EQ(allocation.address.offset % 64, 0u) << allocation.address.ToString();
    EXPECT_EQ(allocation.address.space, MemorySpace::kHost);
    EXPECT_GE(allocation.address.offset, MemoryLayout::kFirstChunkOffset);
    EXPECT_LE(allocation.address.offset + allocation.bytes, topology.host_memory_bytes());
  }
  std::sort(allocations.begin(), allocations.end(),
            [](const Allocation& a, const Allocation& b) { return a.address < b.address; });
  for (size_t i = 1; i < allocations.size(); ++i) {
    const Allocation& previous = allocations[i - 1];
    const Allocation& next = allocations[i];
    if (previous.address.server != next.address.server) continue;
    EXPECT_GE(next.address.offset, previous.address.offset + previous.bytes)
        << previous.address.ToString() << " (thread " << previous.thread << ", " << previous.bytes
        << " B) overlaps " << next.address.ToString() << " (thread " << next.thread << ")";
  }

  // Every chunk came from a counter: the counters add up to the chunks taken.
  uint64_t counted = 0;
  for (uint16_t server = 0; server < topology.memory_servers; ++server) {
    const uint64_t counter =
        cluster->memory(server, MemorySpace::kHost).ReadWord(MemoryLayout::kChunkCounterOffset);
    EXPECT_EQ(counter % topology.chunk_bytes(), 0u);
    counted += counter / topology.chunk_bytes();
  }
  uint64_t taken = 0;
  for (uint64_t chunks : chunks_taken) taken += chunks;
  EXPECT_EQ(counted, taken);
  EXPECT_GT(taken, topology.threads());  // each thread needed several chunks
}

TEST(ChunkAllocator, ThreadsStartOnDifferentServersAndTakeThemInTurn) {
  const Topology topology = Shape(4, 2, 1, 16);
  auto cluster = MakeCluster(topology);
  std::vector<std::vector<uint16_t>> servers(topology.threads());
  cluster->Run([&](Client& client) {
    // A whole chunk per allocation, so every allocation takes a new chunk.
    for (int i = 0; i < 6; ++i) {
      servers[ThreadIndex(client, topology)].push_back(
          client.allocator().Allocate(client, kMiB).server);
    }
  });
  for (uint32_t thread = 0; thread < topology.threads(); ++thread) {
    std::vector<uint16_t> expected;
    for (uint32_t i = 0; i < 6; ++i) expected.push_back(static_cast<uint16_t>((thread + i) % 4));
    EXPECT_EQ(servers[thread], expected) << "thread " << thread;
  }
}

TEST(ChunkAllocator, SmallAllocationsAreRoundedToCachelinesAndPacked) {
  auto cluster = MakeCluster(Shape(1, 1, 1, 16));
  std::vector<GlobalAddress> addresses;
  uint64_t fetch_and_adds = 0;
  cluster->Run([&](Client& client) {
    if (client.location().index != 0) return;
    for (uint64_t bytes : {1, 65, 64, 128}) {
      addresses.push_back(client.allocator().Allocate(client, bytes));
    }
    fetch_and_adds = client.total_stats().fetch_and_adds;
  });
  const uint64_t first = MemoryLayout::kFirstChunkOffset;
  EXPECT_EQ(addresses,
            (std::vector<GlobalAddress>{
                GlobalAddress::Host(0, first), GlobalAddress::Host(0, first + 64),
                GlobalAddress::Host(0, first + 192), GlobalAddress::Host(0, first + 256)}));
  EXPECT_EQ(fetch_and_adds, 1u);  // one chunk, one round trip
}

TEST(ChunkAllocator, ExhaustedServerIsNamedWithTheFix) {
  // 2 MiB per server hold the 64 KiB metadata area and one 1 MiB chunk. Thread
  // 1 takes server 1's chunk, then server 0's, then finds server 1 empty.
  auto cluster = MakeCluster(Shape(2, 2, 1, 2));
  int allocated = 0;
  try {
    cluster->Run([&](Client& client) {
      if (client.location().compute_server != 0 || client.location().thread != 1) return;
      for (int i = 0; i < 3; ++i) {
        client.allocator().Allocate(client, kMiB);
        ++allocated;
      }
    });
    FAIL() << "allocated three chunks from two one-chunk servers";
  } catch (const MemoryExhaustedError& error) {
    const std::string message = error.what();
    EXPECT_TRUE(Mentions(message, "memory server 1 is exhausted"));
    EXPECT_TRUE(Mentions(message, "its 2 MiB of host memory hold 1 chunks of 1 MiB"));
    EXPECT_TRUE(Mentions(message, "raise topology.host_memory_mib"));
  }
  EXPECT_EQ(allocated, 2);
}

TEST(ChunkAllocator, RequestLargerThanAChunkIsRejectedWithoutTakingOne) {
  auto cluster = MakeCluster(Shape(1, 1, 1, 16));
  std::string message = "no error";
  uint64_t chunks_taken = 1;
  cluster->Run([&](Client& client) {
    if (client.location().index != 0) return;
    try {
      client.allocator().Allocate(client, kMiB + 1);
    } catch (const MemoryExhaustedError& error) {
      message = error.what();
    }
    chunks_taken = client.allocator().chunks_taken();
  });
  EXPECT_TRUE(Mentions(message,
                       "cannot allocate 1048640 bytes: larger than a chunk (1048576 "
                       "bytes); raise topology.chunk_mib"));
  EXPECT_EQ(chunks_taken, 0u);
  EXPECT_EQ(cluster->memory(0, MemorySpace::kHost).ReadWord(MemoryLayout::kChunkCounterOffset), 0u);
}

TEST(ChunkAllocator, ExactlyAChunkFits) {
  auto cluster = MakeCluster(Shape(1, 1, 1, 16));
  GlobalAddress address;
  cluster->Run([&](Client& client) {
    if (client.location().index == 0) address = client.allocator().Allocate(client, kMiB);
  });
  EXPECT_EQ(address, GlobalAddress::Host(0, MemoryLayout::kFirstChunkOffset));
}

}  // namespace
}  // namespace dmbench::rdma
