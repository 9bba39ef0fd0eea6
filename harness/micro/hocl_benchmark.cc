#include "harness/micro/hocl_benchmark.h"

#include <memory>

#include <nlohmann/json.hpp>

#include "harness/rdma/memory_layout.h"
#include "indexes/common/global_lock_table.h"
#include "indexes/node_locker_factory.h"

namespace dmbench::micro {

std::vector<HoclVariant> HoclBenchmarkConfig::DefaultVariants(uint32_t max_handovers) {
  indexes::LockOptions options = indexes::TreeOptions::Sherman().locks();
  // The figure's locks are an array in one memory server, not node words.
  options.placement = indexes::LockPlacement::kTable;
  options.on_chip = false;
  options.hierarchical = false;
  options.handover = 0;
  std::vector<HoclVariant> variants = {{"RDMA lock", options}};
  options.on_chip = true;
  variants.push_back({"+On-Chip", options});
  // The paper's two HOCL steps, measured apart: local lock tables with FIFO
  // wait queues alone, then handover of the global lock on top. Before them,
  // the tables without wait queues, whose tail the paper also states
  // (99p 414 us without, 372 us with).
  options.hierarchical = true;
  options.wait_queues = false;
  variants.push_back({kHoclNoWaitQueues, options});
  options.wait_queues = true;
  variants.push_back({"+Hierarchical", options});
  options.handover = max_handovers;
  variants.push_back({"+Handover", options});
  return variants;
}

rdma::Topology HoclBenchmarkConfig::DefaultTopology() {
  rdma::Topology topology = MicroTopology(8, 8);
  topology.colocated = true;
  return topology;
}

nlohmann::json RunHoclBenchmark(const HoclBenchmarkConfig& config, const MicroOptions& options,
                                std::ostream& table) {
  std::vector<PointResult> points;
  std::vector<nlohmann::json> rows;
  for (const HoclVariant& variant : config.variants) {
    for (double theta : config.thetas) {
      const indexes::GlobalLockTable lock_table(variant.options);
      // MeasurePoint runs the clients on the simulated fabric, on one thread.
      const std::unique_ptr<indexes::NodeLocker> locker =
          indexes::MakeNodeLocker(variant.options, lock_table, config.topology.compute_servers,
                                  /*threads_share=*/false, config.await_release);
      // Lock i protects the node at the i-th 1 KiB slot of memory server 0;
      // nodes map to global locks by the same hash as in the trees.
      const LockPopularity popularity(config.locks, theta, config.key_space);
      PointResult point =
          MeasurePoint(config.topology, options, [&](rdma::Client& client, Random& random) {
            const rdma::GlobalAddress node =
                rdma::GlobalAddress::Host(0, rdma::MemoryLayout::kFirstChunkOffset +
                                                 uint64_t{popularity.Next(random)} * 1024);
            indexes::IndexOpStats stats;
            const indexes::LockGrant grant = locker->Acquire(client, node, stats);
            locker->WriteBackAndRelease(client, grant, {}, stats);
            return Completed{1, 0};
          });
      rows.push_back(PointRow(point, {{"variant", variant.name}, {"theta", theta}}));
      points.push_back(std::move(point));
    }
  }
  return FinishBenchmark(
      "hocl",
      "Hierarchical on-chip lock (Sherman Fig. 16): " + std::to_string(config.topology.clients()) +
          " clients, " + std::to_string(config.locks) + " locks on one memory server",
      {"variant", "theta", "mops", "p50_us", "p99_us"},
      {{"clients", config.topology.clients()},
       {"locks", config.locks},
       {"key_space", config.key_space},
       {"colocated", config.topology.colocated}},
      options, rows, points, table);
}

}  // namespace dmbench::micro
