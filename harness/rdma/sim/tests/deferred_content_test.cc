// Deferred content on the simulated fabric: a block is built when a verb
// first touches it, and every verb sees the bytes it would have seen had the
// block been written before it.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::MakeCluster;
using test_support::SmallTopology;

constexpr uint32_t kNodeBlockBytes = 1024;
constexpr uint64_t kBase = 1 << 20;

// Block i on server i % 2 at kBase + (i / 2) * kNodeBlockBytes, every byte a
// function of (block, position).
class PatternContent final : public DeferredContent {
 public:
  explicit PatternContent(uint64_t blocks) : blocks_(blocks) {}
  uint64_t blocks() const override { return blocks_; }
  uint32_t block_bytes() const override { return kNodeBlockBytes; }
  GlobalAddress address(uint64_t block) const override {
    return GlobalAddress::Host(static_cast<uint16_t>(block % 2),
                               kBase + (block / 2) * kNodeBlockBytes);
  }
  void Fill(uint64_t block, std::span<uint8_t> out) const override {
    for (size_t i = 0; i < out.size(); ++i) out[i] = Byte(block, i);
  }
  static uint8_t Byte(uint64_t block, size_t i) {
    return static_cast<uint8_t>(block * 31 + i * 7 + 1);
  }

 private:
  uint64_t blocks_;
};

std::vector<uint8_t> Pattern(uint64_t block) {
  std::vector<uint8_t> bytes(kNodeBlockBytes);
  PatternContent(block + 1).Fill(block, bytes);
  return bytes;
}

// `count` of the deferred blocks of both memory servers' host memory, summed.
uint64_t Sum(SimCluster& cluster, uint64_t (DeferredBlocks::*count)() const) {
  return (cluster.memory(0, MemorySpace::kHost).deferred().*count)() +
         (cluster.memory(1, MemorySpace::kHost).deferred().*count)();
}
uint64_t Built(SimCluster& cluster) { return Sum(cluster, &DeferredBlocks::built); }
uint64_t ReadThrough(SimCluster& cluster) { return Sum(cluster, &DeferredBlocks::read_through); }
uint64_t Pending(SimCluster& cluster) { return Sum(cluster, &DeferredBlocks::pending); }

void ExpectReads(SimCluster& cluster, GlobalAddress at, const std::vector<uint8_t>& expected) {
  cluster.Run([&](Client& client) {
    if (client.location().index != 0) return;
    std::vector<uint8_t> bytes(expected.size());
    client.Read(at, bytes.data(), static_cast<uint32_t>(bytes.size()));
    EXPECT_EQ(bytes, expected);
  });
}

TEST(DeferredContent, TheFirstReadsBuildIntoTheReaderAndTheNextIntoMemory) {
  constexpr uint64_t kThrough = DeferredBlocks::kReadsThroughBeforeBuild;
  auto cluster = MakeCluster(SmallTopology(2, 1, 1));
  const SimTime before = cluster->now();
  cluster->Run([](Client& client) { client.WriteDeferred(std::make_shared<PatternContent>(40)); });
  // Handing the blocks over takes no simulated time and builds nothing.
  EXPECT_EQ(cluster->now(), before);
  EXPECT_EQ(Built(*cluster), 0u);

  const GlobalAddress seventh = GlobalAddress::Host(1, kBase + 3 * kNodeBlockBytes);
  for (uint64_t read = 1; read <= kThrough; ++read) {
    ExpectReads(*cluster, seventh, Pattern(7));
    EXPECT_EQ(Built(*cluster), 0u) << "read " << read;
    EXPECT_EQ(ReadThrough(*cluster), 1u) << "read " << read;
  }
  ExpectReads(*cluster, seventh, Pattern(7));
  EXPECT_EQ(Built(*cluster), 1u);
  EXPECT_EQ(ReadThrough(*cluster), 0u);
  ExpectReads(*cluster, seventh, Pattern(7));
  EXPECT_EQ(Built(*cluster), 1u);

  // A READ across two blocks counts a read of each.
  std::vector<uint8_t> across(kNodeBlockBytes);
  const std::vector<uint8_t> first = Pattern(0), second = Pattern(2);
  std::copy(first.begin() + kNodeBlockBytes / 2, first.end(), across.begin());
  std::copy(second.begin(), second.begin() + kNodeBlockBytes / 2,
            across.begin() + kNodeBlockBytes / 2);
  const GlobalAddress straddling = GlobalAddress::Host(0, kBase + kNodeBlockBytes / 2);
  for (uint64_t read = 1; read <= kThrough; ++read) {
    ExpectReads(*cluster, straddling, across);
    EXPECT_EQ(Built(*cluster), 1u) << "read " << read;
    EXPECT_EQ(ReadThrough(*cluster), 2u) << "read " << read;
  }
  ExpectReads(*cluster, straddling, across);
  EXPECT_EQ(Built(*cluster), 3u);
  EXPECT_EQ(ReadThrough(*cluster), 0u);
  EXPECT_EQ(Pending(*cluster), 37u);
}

TEST(DeferredContent, AWriteAfterAFirstReadBuildsTheBlockAroundIt) {
  auto cluster = MakeCluster(SmallTopology(2, 1, 1));
  cluster->Run([](Client& client) { client.WriteDeferred(std::make_shared<PatternContent>(8)); });
  const GlobalAddress block = GlobalAddress::Host(0, kBase + 2 * kNodeBlockBytes);
  ExpectReads(*cluster, block, Pattern(4));
  EXPECT_EQ(ReadThrough(*cluster), 1u);
  const uint64_t word = 0x1122334455667788;
  cluster->Run([&](Client& client) {
    if (client.location().index == 0) client.Write(block + 16, &word, sizeof(word));
  });
  EXPECT_EQ(Built(*cluster), 1u);
  EXPECT_EQ(ReadThrough(*cluster), 0u);
  std::vector<uint8_t> expected = Pattern(4);
  std::memcpy(expected.data() + 16, &word, sizeof(word));
  ExpectReads(*cluster, block, expected);
}

TEST(DeferredContent, WritesAndAtomicsLandOnTheBuiltBytes) {
  auto cluster = MakeCluster(SmallTopology(2, 1, 1));
  cluster->Run([](Client& client) {
    client.WriteDeferred(std::make_shared<PatternContent>(8));
    // A WRITE into an untouched block keeps the rest of it.
    const uint64_t word = 0x1122334455667788;
    client.Write(GlobalAddress::Host(0, kBase + 2 * kNodeBlockBytes + 16), &word, sizeof(word));
    std::vector<uint8_t> bytes(kNodeBlockBytes);
    client.Read(GlobalAddress::Host(0, kBase + 2 * kNodeBlockBytes), bytes.data(), kNodeBlockBytes);
    std::vector<uint8_t> expected = Pattern(4);
    std::memcpy(expected.data() + 16, &word, sizeof(word));
    EXPECT_EQ(bytes, expected);

    // An atomic on an untouched block sees the block's word.
    const GlobalAddress target = GlobalAddress::Host(1, kBase + kNodeBlockBytes + 8);
    uint64_t built_word = 0;
    std::memcpy(&built_word, Pattern(3).data() + 8, sizeof(built_word));
    EXPECT_EQ(client.CompareAndSwap(target, built_word, 5), built_word);
    EXPECT_EQ(client.FetchAndAdd(target, 1), 5u);
  });
}

TEST(DeferredContent, RawAccessBuildsEverythingAndEagerWritesMatch) {
  auto deferred = MakeCluster(SmallTopology(2, 1, 1));
  SimOptions eager_options;
  eager_options.deferred_writes = false;
  auto eager = std::make_unique<SimCluster>(SmallTopology(2, 1, 1), NicProfile::Find("cx5-100g"),
                                            eager_options);
  for (SimCluster* cluster : {deferred.get(), eager.get()}) {
    cluster->Run(
        [](Client& client) { client.WriteDeferred(std::make_shared<PatternContent>(64)); });
  }
  // Written up front, one simulated WRITE each.
  EXPECT_GT(eager->now(), 0);
  for (uint16_t server = 0; server < 2; ++server) {
    std::vector<uint8_t> a(32 * kNodeBlockBytes);
    std::vector<uint8_t> b(32 * kNodeBlockBytes);
    deferred->memory(server, MemorySpace::kHost).Peek(kBase, a.data(), a.size());
    eager->memory(server, MemorySpace::kHost).Peek(kBase, b.data(), b.size());
    EXPECT_EQ(a, b) << server;
  }
  EXPECT_EQ(Built(*deferred), 64u);
}

TEST(DeferredContent, BlocksOutsideHostMemoryAreRefused) {
  class Outside final : public DeferredContent {
   public:
    uint64_t blocks() const override { return 1; }
    uint32_t block_bytes() const override { return 8; }
    GlobalAddress address(uint64_t) const override { return GlobalAddress::Host(5, kBase); }
    void Fill(uint64_t, std::span<uint8_t>) const override {}
  };
  auto cluster = MakeCluster(SmallTopology(2, 1, 1));
  EXPECT_THROW(
      cluster->Run([](Client& client) { client.WriteDeferred(std::make_shared<Outside>()); }),
      VerbError);
}

}  // namespace
}  // namespace dmbench::rdma::sim
