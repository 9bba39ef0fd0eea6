#include "harness/micro/atomic_benchmark.h"

#include <nlohmann/json.hpp>

#include "harness/rdma/memory_layout.h"

namespace dmbench::micro {

rdma::Topology AtomicBenchmarkConfig::DefaultTopology() { return MicroTopology(8); }

nlohmann::json RunAtomicBenchmark(const AtomicBenchmarkConfig& config, const MicroOptions& options,
                                  std::ostream& table) {
  std::vector<PointResult> points;
  std::vector<nlohmann::json> rows;
  for (rdma::MemorySpace space : config.spaces) {
    for (uint32_t count : config.address_counts) {
      const uint64_t base =
          space == rdma::MemorySpace::kHost ? rdma::MemoryLayout::kFirstChunkOffset : 0;
      // Each client guesses the word's value from what it last saw, so the
      // mix of successes and failures is what contention makes it.
      std::vector<uint64_t> last_seen(config.topology.clients() * uint64_t{count}, 0);
      PointResult point =
          MeasurePoint(config.topology, options, [&](rdma::Client& client, Random& random) {
            const uint64_t word = random.Uniform(count);
            uint64_t& guess = last_seen[client.location().index * uint64_t{count} + word];
            const rdma::GlobalAddress address{0, space, base + word * 8};
            const uint64_t old = client.CompareAndSwap(address, guess, guess + 1);
            guess = old == guess ? old + 1 : old;
            return Completed{1, 8};
          });
      rows.push_back(
          PointRow(point, {{"memory", space == rdma::MemorySpace::kHost ? "host" : "on-chip"},
                           {"addresses", count}}));
      points.push_back(std::move(point));
    }
  }
  return FinishBenchmark(
      "atomics", "CAS throughput, " + std::to_string(config.topology.clients()) + " clients",
      {"memory", "addresses", "mops", "p50_us", "p99_us"}, {{"clients", config.topology.clients()}},
      options, rows, points, table);
}

}  // namespace dmbench::micro
