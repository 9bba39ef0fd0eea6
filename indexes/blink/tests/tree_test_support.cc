#include "indexes/blink/tests/tree_test_support.h"

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/util/random.h"
#include "indexes/index_factory.h"

namespace dmbench::indexes::test_support {

rdma::Topology FixtureTopology(uint32_t machines, uint32_t threads, uint32_t coroutines) {
  rdma::Topology topology;
  topology.memory_servers = machines;
  topology.compute_servers = machines;
  topology.threads_per_compute_server = threads;
  topology.coroutines_per_thread = coroutines;
  topology.colocated = true;
  topology.host_memory_mib = 64;
  topology.chunk_mib = 1;
  return topology;
}

TreeFixture MakeFixture(const TreeOptions& options, uint32_t machines, uint32_t threads,
                        uint32_t coroutines, uint64_t seed, const rdma::sim::NicProfile* profile) {
  const rdma::Topology topology = FixtureTopology(machines, threads, coroutines);
  TreeFixture fixture;
  fixture.cluster = rdma::sim::test_support::MakeCluster(
      topology, profile != nullptr ? *profile : rdma::sim::test_support::DefaultProfile(), seed);
  fixture.tree = MakeBLinkTree(options, fixture.cluster->shape(), seed);
  return fixture;
}

namespace {

// `count` of every memory server's deferred host-memory blocks, summed.
uint64_t SumDeferred(rdma::sim::SimCluster& cluster,
                     uint64_t (rdma::sim::DeferredBlocks::*count)() const) {
  uint64_t sum = 0;
  for (uint32_t server = 0; server < cluster.shape().memory_servers; ++server) {
    sum += (cluster.memory(static_cast<uint16_t>(server), rdma::MemorySpace::kHost).deferred().*
            count)();
  }
  return sum;
}

}  // namespace

uint64_t BuiltNodes(rdma::sim::SimCluster& cluster) {
  return SumDeferred(cluster, &rdma::sim::DeferredBlocks::built);
}

uint64_t TouchedNodes(rdma::sim::SimCluster& cluster) {
  return BuiltNodes(cluster) + SumDeferred(cluster, &rdma::sim::DeferredBlocks::read_through);
}

void Bulkload(rdma::Cluster& cluster, BLinkTree& tree, uint64_t count, uint64_t stride, double fill,
              ConsistencyChecker* checker) {
  std::vector<KeyValue> entries;
  for (uint64_t i = 0; i < count; ++i) entries.emplace_back(1 + i * stride, 1 + i * stride);
  cluster.RunClients([&](rdma::Client& client) {
    if (client.location().index == 0) tree.Bulkload(client, entries, fill);
  });
  if (checker != nullptr) {
    for (const auto& [key, value] : entries) checker->SetInitial(key, value);
  }
}

WorkloadResult RunCheckedWorkload(rdma::Cluster& cluster, BLinkTree& tree, const WorkloadMix& mix,
                                  uint64_t seed, ConsistencyChecker& checker) {
  WorkloadResult result;
  std::vector<IndexOpStats> per_client(cluster.shape().clients);
  cluster.RunClients([&](rdma::Client& client) {
    const uint32_t id = client.location().index;
    Random random(DeriveSeed(seed, id));
    IndexOpStats& stats = per_client[id];
    std::vector<KeyValue> range;
    for (uint32_t op = 0; op < mix.operations_per_client; ++op) {
      const uint64_t key = 1 + random.Uniform(mix.key_space);
      const double dice = random.NextDouble();
      const uint64_t invoke = client.NowNanoseconds();
      if (dice < mix.upsert) {
        // Unique values make every read attributable to one write.
        const uint64_t value = (uint64_t{id + 1} << 32) | op;
        tree.Upsert(client, key, value, stats);
        checker.RecordUpsert(id, key, value, invoke, client.NowNanoseconds());
      } else if (dice < mix.upsert + mix.remove) {
        const bool existed = tree.Delete(client, key, stats);
        checker.RecordDelete(id, key, existed, invoke, client.NowNanoseconds());
      } else if (dice < mix.upsert + mix.remove + mix.lookup) {
        uint64_t value = 0;
        const bool found = tree.Lookup(client, key, &value, stats);
        checker.RecordLookup(id, key, found ? std::optional(value) : std::nullopt, invoke,
                             client.NowNanoseconds());
      } else {
        tree.RangeQuery(client, key, key + mix.range_width, mix.range_limit, &range, stats);
        checker.RecordRange(id, key, key + mix.range_width, mix.range_limit, range, invoke,
                            client.NowNanoseconds());
      }
    }
  });
  cluster.RunClients([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    for (uint64_t key = 1; key <= mix.key_space; ++key) {
      uint64_t value = 0;
      const uint64_t invoke = client.NowNanoseconds();
      const bool found = tree.Lookup(client, key, &value, per_client[0]);
      checker.RecordLookup(0, key, found ? std::optional(value) : std::nullopt, invoke,
                           client.NowNanoseconds());
    }
  });
  for (const IndexOpStats& stats : per_client) result.stats += stats;
  result.operations = uint64_t{mix.operations_per_client} * per_client.size();
  result.report = checker.Check();
  return result;
}

std::string Describe(const ConsistencyReport& report) {
  std::string text = std::to_string(report.violations) + " violations in " +
                     std::to_string(report.operations_checked) + " operations";
  for (const ConsistencyViolation& violation : report.examples) text += "\n  " + violation.message;
  return text;
}

std::string ConfigErrorOf(const TreeOptions& options, const rdma::ClusterShape& shape) {
  try {
    MakeBLinkTree(options, shape, 1);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

}  // namespace dmbench::indexes::test_support
