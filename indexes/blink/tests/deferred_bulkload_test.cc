// A bulkload on the simulated fabric hands its nodes over as deferred
// content: every node is built when a verb first touches it. The memory it
// leaves must be byte for byte what writing every node up front leaves, and a
// lookup must build only the nodes on its path.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "harness/rdma/sim/sim_cluster.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "indexes/blink/tests/tree_test_support.h"
#include "indexes/index_factory.h"

namespace dmbench::indexes {
namespace {

constexpr uint32_t kMachines = 3;
constexpr uint64_t kKeys = 20000;

rdma::Topology ComparedTopology() {
  rdma::Topology topology = test_support::FixtureTopology(kMachines, 1, 1);
  topology.host_memory_mib = 16;  // compared byte for byte
  return topology;
}

struct LoadedTree {
  std::unique_ptr<rdma::sim::SimCluster> cluster;
  std::unique_ptr<BLinkTree> tree;
};

LoadedTree LoadTree(const TreeOptions& options, bool deferred) {
  rdma::sim::SimOptions sim;
  sim.deferred_writes = deferred;
  LoadedTree loaded;
  loaded.cluster = std::make_unique<rdma::sim::SimCluster>(
      ComparedTopology(), rdma::sim::test_support::DefaultProfile(), sim);
  loaded.tree = MakeBLinkTree(options, loaded.cluster->shape(), 7);
  test_support::Bulkload(*loaded.cluster, *loaded.tree, kKeys, 3, 0.8, nullptr);
  return loaded;
}

uint64_t Pending(rdma::sim::SimCluster& cluster) {
  uint64_t pending = 0;
  for (uint16_t server = 0; server < kMachines; ++server) {
    pending += cluster.memory(server, rdma::MemorySpace::kHost).deferred().pending();
  }
  return pending;
}

class DeferredBulkload : public ::testing::TestWithParam<Consistency> {
 protected:
  TreeOptions Options() const {
    TreeOptions options = TreeOptions::Sherman();
    options.consistency = GetParam();
    return options;
  }
};

void ExpectSameBytes(const TreeOptions& options) {
  LoadedTree deferred = LoadTree(options, true);
  LoadedTree eager = LoadTree(options, false);
  EXPECT_GT(Pending(*deferred.cluster), kKeys / 100);
  EXPECT_EQ(Pending(*eager.cluster), 0u);
  for (uint16_t server = 0; server < kMachines; ++server) {
    // Peek builds every pending node first.
    std::vector<uint8_t> a(ComparedTopology().host_memory_bytes());
    std::vector<uint8_t> b(a.size());
    deferred.cluster->memory(server, rdma::MemorySpace::kHost).Peek(0, a.data(), a.size());
    eager.cluster->memory(server, rdma::MemorySpace::kHost).Peek(0, b.data(), b.size());
    EXPECT_EQ(a, b) << "server " << server;
  }
}

TEST_P(DeferredBulkload, LeavesTheBytesAnUpFrontBulkloadWrites) { ExpectSameBytes(Options()); }

// FG+ keeps its lock word in the node header.
TEST(DeferredBulkloadFgPlus, LeavesTheBytesAnUpFrontBulkloadWrites) {
  ExpectSameBytes(TreeOptions::FgPlus());
}

TEST_P(DeferredBulkload, ALookupTouchesOnlyTheNodesOnItsPath) {
  LoadedTree loaded = LoadTree(Options(), true);
  const uint64_t nodes = Pending(*loaded.cluster);
  loaded.cluster->Run([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    IndexOpStats stats;
    uint64_t value = 0;
    const uint64_t key = 1 + 3 * 40;  // keys are 1, 4, 7, ...; values the keys
    EXPECT_TRUE(loaded.tree->Lookup(client, key, &value, stats));
    EXPECT_EQ(value, key);
  });
  const uint32_t height = 3;  // 20000 keys in 1 KiB nodes: leaves, one level, the root
  EXPECT_GE(test_support::TouchedNodes(*loaded.cluster), 1u);
  EXPECT_LE(test_support::TouchedNodes(*loaded.cluster), height);
  EXPECT_EQ(Pending(*loaded.cluster) + test_support::BuiltNodes(*loaded.cluster), nodes);
}

INSTANTIATE_TEST_SUITE_P(Schemes, DeferredBulkload, ::testing::ValuesIn(test_support::kAllSchemes));

}  // namespace
}  // namespace dmbench::indexes
