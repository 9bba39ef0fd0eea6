#include "harness/micro/spinlock_benchmark.h"

#include "harness/rdma/memory_layout.h"
#include "workloads/zipfian_generator.h"

namespace dmbench::micro {

rdma::Topology SpinlockBenchmarkConfig::DefaultTopology() {
  rdma::Topology topology;
  topology.memory_servers = 1;
  topology.compute_servers = 7;
  topology.threads_per_compute_server = 22;
  topology.coroutines_per_thread = 1;
  topology.colocated = false;
  topology.host_memory_mib = 64;
  topology.chunk_mib = 1;
  return topology;
}

nlohmann::json RunSpinlockBenchmark(const SpinlockBenchmarkConfig& config,
                                    const MicroOptions& options, std::ostream& table) {
  std::vector<PointResult> points;
  std::vector<nlohmann::json> rows;
  for (LockRelease release : config.releases) {
    for (double theta : config.thetas) {
      // Rank r is lock r: the hottest locks are neighbours, but 8-byte locks
      // only share an atomic bucket every 512 words, as on the real NIC.
      const workloads::ZipfianGenerator zipfian(config.locks, theta);
      PointResult point =
          MeasurePoint(config.topology, options, [&](rdma::Client& client, Random& random) {
            const rdma::GlobalAddress lock = rdma::GlobalAddress::Host(
                0, rdma::MemoryLayout::kFirstChunkOffset + zipfian.Next(random) * 8);
            while (client.CompareAndSwap(lock, 0, 1) != 0) {
            }
            if (release == LockRelease::kFetchAndAdd) {
              client.FetchAndAdd(lock, ~uint64_t{0});
            } else {
              const uint64_t unlocked = 0;
              client.Write(lock, &unlocked, 8);
            }
            return Completed{1, 0};
          });
      nlohmann::json row = point.ToJson();
      row["release"] = release == LockRelease::kFetchAndAdd ? "FAA (FG)" : "WRITE (FG+)";
      row["theta"] = theta;
      row["p50_us"] = row["latency_us"]["p50"];
      row["p99_us"] = row["latency_us"]["p99"];
      rows.push_back(row);
      points.push_back(std::move(point));
    }
  }
  table << "RDMA spin locks (Sherman Fig. 2): " << config.topology.clients() << " clients, "
        << config.locks << " locks on one memory server\n"
        << FormatTable(rows, {"release", "theta", "mops", "p50_us", "p99_us"})
        << SimulatorSpeedLine(points);
  return {{"benchmark", "spinlock"},
          {"clients", config.topology.clients()},
          {"locks", config.locks},
          {"warmup_us", options.warmup_us},
          {"measure_us", options.measure_us},
          {"points", rows},
          {"simulator", SimulatorSpeedJson(points)}};
}

}  // namespace dmbench::micro
