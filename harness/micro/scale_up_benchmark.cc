#include "harness/micro/scale_up_benchmark.h"

#include <vector>

#include <nlohmann/json.hpp>

#include "harness/rdma/memory_layout.h"

namespace dmbench::micro {

nlohmann::json RunScaleUpBenchmark(const ScaleUpBenchmarkConfig& config,
                                   const MicroOptions& options, std::ostream& table) {
  constexpr uint64_t kSliceBytes = 4096;
  std::vector<PointResult> points;
  std::vector<nlohmann::json> rows;
  for (const bool per_thread : config.per_thread_doorbells) {
    MicroOptions point_options = options;
    point_options.substrate.per_thread_doorbells = per_thread;
    for (const rdma::Verb verb : config.verbs) {
      for (const uint32_t depth : config.depths) {
        for (const uint32_t threads : config.thread_counts) {
          rdma::Topology topology = MicroTopology(1, 1);
          topology.threads_per_compute_server = threads;
          topology.host_memory_mib = std::max<uint64_t>(
              topology.host_memory_mib,
              (rdma::MemoryLayout::kFirstChunkOffset + uint64_t{threads} * kSliceBytes) /
                      (1 << 20) +
                  1);
          // Per thread: `depth` work requests of their own, each its own batch
          // (its own post and doorbell, as SMART's read() with PostRequest).
          std::vector<std::vector<uint8_t>> buffers(
              threads, std::vector<uint8_t>(uint64_t{depth} * config.io_bytes, 0x5A));
          std::vector<std::vector<rdma::WorkRequest>> requests(threads);
          std::vector<std::vector<std::span<rdma::WorkRequest>>> batches(threads);
          for (uint32_t thread = 0; thread < threads; ++thread) {
            const uint64_t slice =
                rdma::MemoryLayout::kFirstChunkOffset + uint64_t{thread} * kSliceBytes;
            for (uint32_t i = 0; i < depth; ++i) {
              requests[thread].push_back(
                  {.verb = verb,
                   .remote = rdma::GlobalAddress::Host(0, slice + uint64_t{i} * config.io_bytes),
                   .local = buffers[thread].data() + uint64_t{i} * config.io_bytes,
                   .length = config.io_bytes});
            }
            for (rdma::WorkRequest& request : requests[thread]) {
              batches[thread].push_back(std::span(&request, 1));
            }
          }
          PointResult point =
              MeasurePoint(topology, point_options, [&](rdma::Client& client, Random&) {
                client.ExecuteConcurrently(batches[client.location().thread]);
                return Completed{depth, uint64_t{depth} * config.io_bytes};
              });
          rows.push_back(
              PointRow(point, {{"doorbells", per_thread ? "per-thread doorbell" : "per-thread QP"},
                               {"verb", rdma::VerbName(verb)},
                               {"threads", threads},
                               {"depth", depth},
                               {"io_bytes", config.io_bytes}}));
          points.push_back(std::move(point));
        }
      }
    }
  }
  return FinishBenchmark(
      "scale-up",
      "Scale-up of one compute server (SMART Figs. 3 and 4): " + std::to_string(config.io_bytes) +
          " B verbs, one post and doorbell per work request",
      {"doorbells", "verb", "threads", "depth", "mops", "p50_us", "p99_us"},
      {{"io_bytes", config.io_bytes}}, options, rows, points, table);
}

}  // namespace dmbench::micro
