#include "harness/micro/verb_benchmark.h"

#include <vector>

#include <nlohmann/json.hpp>

#include "harness/rdma/memory_layout.h"

namespace dmbench::micro {

rdma::Topology VerbBenchmarkConfig::DefaultTopology() { return MicroTopology(8); }

nlohmann::json RunVerbBenchmark(const VerbBenchmarkConfig& config, const MicroOptions& options,
                                std::ostream& table) {
  constexpr uint64_t kSlotBytes = 4096;
  rdma::Topology topology = config.topology;
  if (!config.inbound) topology.compute_servers = 1;
  const uint32_t clients = topology.clients();
  // Each client reads and writes its own slot, so that only the fabric, not
  // the data, couples them.
  topology.host_memory_mib = std::max<uint64_t>(
      topology.host_memory_mib,
      (rdma::MemoryLayout::kFirstChunkOffset + uint64_t{clients} * kSlotBytes) / (1 << 20) + 1);

  std::vector<PointResult> points;
  std::vector<nlohmann::json> rows;
  for (rdma::Verb verb : config.verbs) {
    for (uint32_t size : config.sizes) {
      // Built once per client: the benchmark measures the fabric, not itself.
      std::vector<std::vector<uint8_t>> buffers(clients, std::vector<uint8_t>(size, 0xAB));
      std::vector<std::vector<rdma::WorkRequest>> batches(clients);
      for (uint32_t index = 0; index < clients; ++index) {
        const uint16_t server =
            config.inbound ? 0 : static_cast<uint16_t>(index % topology.memory_servers);
        const rdma::GlobalAddress slot = rdma::GlobalAddress::Host(
            server, rdma::MemoryLayout::kFirstChunkOffset + index * kSlotBytes);
        batches[index].assign(
            config.depth,
            {.verb = verb, .remote = slot, .local = buffers[index].data(), .length = size});
      }
      PointResult point = MeasurePoint(topology, options, [&](rdma::Client& client, Random&) {
        client.Execute(batches[client.location().index]);
        return Completed{config.depth, uint64_t{config.depth} * size};
      });
      rows.push_back(PointRow(point, {{"verb", rdma::VerbName(verb)},
                                      {"io_bytes", size},
                                      {"clients", clients},
                                      {"depth", config.depth}}));
      points.push_back(std::move(point));
    }
  }
  const std::string title = std::string(config.inbound ? "Inbound" : "Outbound") +
                            " verbs (Sherman Fig. 3), " + std::to_string(clients) + " clients, " +
                            std::to_string(config.depth) + " work requests per batch";
  return FinishBenchmark("verbs", title,
                         {"verb", "io_bytes", "mops", "gigabytes_per_second", "p50_us", "p99_us"},
                         {{"direction", config.inbound ? "inbound" : "outbound"},
                          {"clients", clients},
                          {"depth", config.depth}},
                         options, rows, points, table);
}

}  // namespace dmbench::micro
