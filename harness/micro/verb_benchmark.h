// Sherman Fig. 3: READ and WRITE throughput and latency versus IO size.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/micro/micro_runner.h"
#include "harness/rdma/work_request.h"

namespace dmbench::micro {

struct VerbBenchmarkConfig {
  std::vector<rdma::Verb> verbs = {rdma::Verb::kRead, rdma::Verb::kWrite};
  std::vector<uint32_t> sizes = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  // Inbound: every client targets memory server 0 (many compute servers into
  // one NIC). Outbound: one compute server's clients spread over all memory
  // servers (one NIC out to many).
  bool inbound = true;
  // Work requests per batch (one doorbell, one round trip) per client.
  uint32_t depth = 1;
  rdma::Topology topology = DefaultTopology();

  static rdma::Topology DefaultTopology();
};

// Runs every (verb, size) point; writes a table to `table` and returns the
// results as JSON.
nlohmann::json RunVerbBenchmark(const VerbBenchmarkConfig& config, const MicroOptions& options,
                                std::ostream& table);

}  // namespace dmbench::micro
