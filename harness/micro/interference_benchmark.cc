#include "harness/micro/interference_benchmark.h"

#include <vector>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/rdma/memory_layout.h"

namespace dmbench::micro {

rdma::Topology InterferenceBenchmarkConfig::DefaultTopology() { return MicroTopology(8); }

nlohmann::json RunInterferenceBenchmark(const InterferenceBenchmarkConfig& config,
                                        const MicroOptions& options, std::ostream& table) {
  const uint32_t clients = config.topology.clients();
  std::vector<PointResult> points;
  std::vector<nlohmann::json> rows;
  for (rdma::MemorySpace space : config.spaces) {
    for (uint32_t spinners : config.spinners) {
      if (spinners >= clients) {
        throw ConfigError("--spinners: each count must leave a reader: below " +
                          std::to_string(clients) + " (the clients), got " +
                          std::to_string(spinners));
      }
      const uint64_t spin_base =
          space == rdma::MemorySpace::kHost ? rdma::MemoryLayout::kFirstChunkOffset : 0;
      // Readers stay clear of the spun word's bucket and of each other's lines.
      const uint64_t read_base = rdma::MemoryLayout::kFirstChunkOffset + (1 << 20);
      std::vector<uint8_t> sink(config.read_bytes);
      PointResult point =
          MeasurePoint(config.topology, options, [&](rdma::Client& client, Random& random) {
            if (client.location().index < spinners) {
              // A CAS that always fails, as a spinner waiting for a held lock.
              client.CompareAndSwap({0, space, spin_base}, 1, 2);
              return Completed{0, 0};
            }
            const uint64_t line = random.Uniform(4096);
            client.Read(rdma::GlobalAddress::Host(0, read_base + line * 4096), sink.data(),
                        config.read_bytes);
            return Completed{1, config.read_bytes};
          });
      rows.push_back(
          PointRow(point, {{"memory", space == rdma::MemorySpace::kHost ? "host" : "on-chip"},
                           {"spinners", spinners},
                           {"readers", clients - spinners}}));
      points.push_back(std::move(point));
    }
  }
  return FinishBenchmark("interference",
                         "READs of other addresses while clients spin CAS on one word, " +
                             std::to_string(clients) + " clients, one memory server",
                         {"memory", "spinners", "readers", "mops", "p50_us", "p99_us"},
                         {{"clients", clients}, {"read_bytes", config.read_bytes}}, options, rows,
                         points, table);
}

}  // namespace dmbench::micro
