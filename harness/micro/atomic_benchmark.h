// Compare-and-swap throughput to one address and to K addresses, on host
// memory (two PCIe transactions per atomic) and on NIC on-chip memory.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/micro/micro_runner.h"
#include "harness/rdma/global_address.h"

namespace dmbench::micro {

struct AtomicBenchmarkConfig {
  std::vector<rdma::MemorySpace> spaces = {rdma::MemorySpace::kHost, rdma::MemorySpace::kOnChip};
  // Distinct 8-byte words the clients spread their CASes over, uniformly.
  std::vector<uint32_t> address_counts = {1, 8, 64, 1024};
  rdma::Topology topology = DefaultTopology();

  static rdma::Topology DefaultTopology();
};

nlohmann::json RunAtomicBenchmark(const AtomicBenchmarkConfig& config, const MicroOptions& options,
                                  std::ostream& table);

}  // namespace dmbench::micro
