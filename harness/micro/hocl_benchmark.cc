#include "harness/micro/hocl_benchmark.h"

#include <memory>

#include "harness/rdma/memory_layout.h"
#include "indexes/common/global_lock_table.h"
#include "indexes/fgplus/remote_spin_locker.h"
#include "indexes/sherman/hierarchical_locker.h"
#include "workloads/zipfian_generator.h"

namespace dmbench::micro {

std::vector<HoclVariant> HoclBenchmarkConfig::DefaultVariants() {
  indexes::TreeOptions options = indexes::TreeOptions::Sherman();
  options.on_chip = false;
  options.hierarchical = false;
  options.handover = 0;
  std::vector<HoclVariant> variants = {{"RDMA lock", options}};
  options.on_chip = true;
  variants.push_back({"+On-Chip", options});
  options.hierarchical = true;
  options.handover = 4;
  variants.push_back({"+Hierarchical", options});
  return variants;
}

rdma::Topology HoclBenchmarkConfig::DefaultTopology() {
  rdma::Topology topology;
  topology.memory_servers = 1;
  topology.compute_servers = 8;
  topology.threads_per_compute_server = 22;
  topology.coroutines_per_thread = 1;
  topology.colocated = false;
  topology.host_memory_mib = 64;
  topology.chunk_mib = 1;
  return topology;
}

nlohmann::json RunHoclBenchmark(const HoclBenchmarkConfig& config, const MicroOptions& options,
                                std::ostream& table) {
  std::vector<PointResult> points;
  std::vector<nlohmann::json> rows;
  for (const HoclVariant& variant : config.variants) {
    for (double theta : config.thetas) {
      const indexes::TreeOptions& lock_options = variant.options;
      const indexes::GlobalLockTable lock_table(lock_options.on_chip, lock_options.masked_locks,
                                                lock_options.faa_release);
      std::unique_ptr<indexes::NodeLocker> locker;
      if (lock_options.hierarchical) {
        locker = std::make_unique<indexes::sherman::HierarchicalLocker>(
            lock_table, config.topology.compute_servers, /*combine=*/true, lock_options.handover);
      } else {
        locker = std::make_unique<indexes::fgplus::RemoteSpinLocker>(lock_table, /*combine=*/true);
      }
      // Lock i protects the node at the i-th 1 KiB slot; nodes map to global
      // locks by the same hash as in the trees.
      const workloads::ZipfianGenerator zipfian(config.locks, theta);
      PointResult point =
          MeasurePoint(config.topology, options, [&](rdma::Client& client, Random& random) {
            const rdma::GlobalAddress node = rdma::GlobalAddress::Host(
                0, rdma::MemoryLayout::kFirstChunkOffset + zipfian.Next(random) * 1024);
            indexes::IndexOpStats stats;
            const indexes::LockGrant grant = locker->Acquire(client, node, stats);
            locker->WriteBackAndRelease(client, grant, {}, stats);
            return Completed{1, 0};
          });
      nlohmann::json row = point.ToJson();
      row["variant"] = variant.name;
      row["theta"] = theta;
      row["p50_us"] = row["latency_us"]["p50"];
      row["p99_us"] = row["latency_us"]["p99"];
      rows.push_back(row);
      points.push_back(std::move(point));
    }
  }
  table << "Hierarchical on-chip lock (Sherman Fig. 16): " << config.topology.clients()
        << " clients, " << config.locks << " locks on one memory server\n"
        << FormatTable(rows, {"variant", "theta", "mops", "p50_us", "p99_us"})
        << SimulatorSpeedLine(points);
  return {{"benchmark", "hocl"},
          {"clients", config.topology.clients()},
          {"locks", config.locks},
          {"warmup_us", options.warmup_us},
          {"measure_us", options.measure_us},
          {"points", rows},
          {"simulator", SimulatorSpeedJson(points)}};
}

}  // namespace dmbench::micro
