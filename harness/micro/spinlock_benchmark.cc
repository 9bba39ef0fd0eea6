#include "harness/micro/spinlock_benchmark.h"

#include <nlohmann/json.hpp>

#include "harness/rdma/memory_layout.h"

namespace dmbench::micro {

rdma::Topology SpinlockBenchmarkConfig::DefaultTopology() { return MicroTopology(7); }

nlohmann::json RunSpinlockBenchmark(const SpinlockBenchmarkConfig& config,
                                    const MicroOptions& options, std::ostream& table) {
  std::vector<PointResult> points;
  std::vector<nlohmann::json> rows;
  for (LockRelease release : config.releases) {
    for (double theta : config.thetas) {
      // Lock i is the i-th 8-byte word: locks share an atomic bucket every
      // 512 words, as on the real NIC.
      const LockPopularity popularity(config.locks, theta, config.key_space);
      PointResult point =
          MeasurePoint(config.topology, options, [&](rdma::Client& client, Random& random) {
            const rdma::GlobalAddress lock = rdma::GlobalAddress::Host(
                0, rdma::MemoryLayout::kFirstChunkOffset + uint64_t{popularity.Next(random)} * 8);
            while (client.CompareAndSwap(lock, 0, 1) != 0) client.RetryAfterFailedCas();
            if (release == LockRelease::kFetchAndAdd) {
              client.FetchAndAdd(lock, ~uint64_t{0});
            } else {
              const uint64_t unlocked = 0;
              client.Write(lock, &unlocked, 8);
            }
            return Completed{1, 0};
          });
      rows.push_back(PointRow(
          point, {{"release", release == LockRelease::kFetchAndAdd ? "FAA (FG)" : "WRITE (FG+)"},
                  {"theta", theta}}));
      points.push_back(std::move(point));
    }
  }
  return FinishBenchmark(
      "spinlock",
      "RDMA spin locks (Sherman Fig. 2): " + std::to_string(config.topology.clients()) +
          " clients, " + std::to_string(config.locks) + " locks on one memory server",
      {"release", "theta", "mops", "p50_us", "p99_us"},
      {{"clients", config.topology.clients()},
       {"locks", config.locks},
       {"key_space", config.key_space}},
      options, rows, points, table);
}

}  // namespace dmbench::micro
