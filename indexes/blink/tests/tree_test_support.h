// Set-up shared by the index tests: a simulated cluster with a tree on it,
// and a random concurrent workload whose every operation is validated by the
// consistency checker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/rdma/sim/sim_cluster.h"
#include "indexes/blink/blink_tree.h"
#include "indexes/common/consistency_checker.h"

namespace dmbench::indexes::test_support {

// Every consistency scheme, for tests that run over all of them.
inline constexpr Consistency kAllSchemes[] = {Consistency::kCrc, Consistency::kNodeVersions,
                                              Consistency::kTwoLevel, Consistency::kCacheline};
// A key that Bulkload(fixture, count, 7, ...) loads (count > 40).
inline constexpr uint64_t kBulkloadedKey = 1 + 7 * 40;

struct TreeFixture {
  std::unique_ptr<rdma::sim::SimCluster> cluster;
  std::unique_ptr<BLinkTree> tree;
};

// `machines` co-located memory and compute servers, each compute server
// `threads` x `coroutines` clients, 64 MiB of host memory per server.
rdma::Topology FixtureTopology(uint32_t machines, uint32_t threads, uint32_t coroutines);

// `memory_servers` = `compute_servers` machines, co-located, each compute
// server `threads` x `coroutines` clients.
TreeFixture MakeFixture(const TreeOptions& options, uint32_t machines, uint32_t threads,
                        uint32_t coroutines, uint64_t seed,
                        const rdma::sim::NicProfile* profile = nullptr);

// Bulkloads keys 1, 1 + stride, ... (count of them) with value = key, from
// client 0, and records them as the checker's initial state.
void Bulkload(rdma::Cluster& cluster, BLinkTree& tree, uint64_t count, uint64_t stride, double fill,
              ConsistencyChecker* checker);
inline void Bulkload(TreeFixture& fixture, uint64_t count, uint64_t stride, double fill,
                     ConsistencyChecker* checker) {
  Bulkload(*fixture.cluster, *fixture.tree, count, stride, fill, checker);
}

// Nodes built into memory so far from deferred bulkload content, over every
// memory server's host memory (what writes, atomics and second reads have
// touched of a tree bulkloaded on the simulated fabric).
uint64_t BuiltNodes(rdma::sim::SimCluster& cluster);
// Deferred nodes some verb has looked at: built ones, and those a READ has
// built into its buffer alone.
uint64_t TouchedNodes(rdma::sim::SimCluster& cluster);

struct WorkloadMix {
  uint64_t key_space = 2000;  // keys are drawn from [1, key_space]
  uint32_t operations_per_client = 100;
  double upsert = 0.45, remove = 0.15, lookup = 0.3;  // the rest: range queries
  uint64_t range_width = 50;
  size_t range_limit = 0;
};

struct WorkloadResult {
  IndexOpStats stats;
  uint64_t operations = 0;
  ConsistencyReport report;
};

// Runs the mix on every client, then looks up every key of the key space
// from one client (so that a lost write shows), and checks the history.
WorkloadResult RunCheckedWorkload(rdma::Cluster& cluster, BLinkTree& tree, const WorkloadMix& mix,
                                  uint64_t seed, ConsistencyChecker& checker);
inline WorkloadResult RunCheckedWorkload(TreeFixture& fixture, const WorkloadMix& mix,
                                         uint64_t seed, ConsistencyChecker& checker) {
  return RunCheckedWorkload(*fixture.cluster, *fixture.tree, mix, seed, checker);
}

std::string Describe(const ConsistencyReport& report);

// The ConfigError message of making a tree with `options` on `shape`, or
// "accepted" when it is made.
std::string ConfigErrorOf(const TreeOptions& options, const rdma::ClusterShape& shape);

}  // namespace dmbench::indexes::test_support
