// How contended atomics slow down everything else on their NIC: k clients
// spin with CAS on one word of a memory server while the other clients READ
// other addresses of the same server. Public RNIC isolation studies report
// this shape (Kalia et al., ATC'16 §3.4: "atomic operations contend with
// non-atomic verbs too"); on the simulated fabric it shows what the
// processing-unit model (NicProfile::processing_units) contributes, on host
// memory and on NIC on-chip memory.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/micro/micro_runner.h"
#include "harness/rdma/global_address.h"

namespace dmbench::micro {

struct InterferenceBenchmarkConfig {
  std::vector<rdma::MemorySpace> spaces = {rdma::MemorySpace::kHost, rdma::MemorySpace::kOnChip};
  // How many clients spin; the rest READ.
  std::vector<uint32_t> spinners = {0, 32, 96, 128, 160};
  uint32_t read_bytes = 64;
  rdma::Topology topology = DefaultTopology();

  static rdma::Topology DefaultTopology();
};

// Points report the READs only: their throughput and latency.
nlohmann::json RunInterferenceBenchmark(const InterferenceBenchmarkConfig& config,
                                        const MicroOptions& options, std::ostream& table);

}  // namespace dmbench::micro
