// The parameters of the simulated fabric, loaded from configs/nic/*.json.
//
// A profile file gives every parameter as {"value": ..., "source": "..."} so
// that each number in the model can be traced to where it came from. All
// parameters are required; unknown keys are rejected.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/sim/sim_time.h"

namespace dmbench {
class JsonObjectReader;
}

namespace dmbench::rdma::sim {

// The order in which a NIC's DMA engine fetches the cachelines of one READ.
enum class DmaOrder { kAscending, kDescending, kRandom };

struct NicProfile {
  std::string name;

  // Compute side: CPU time of the posting thread.
  double cpu_post_request_ns = 0;     // per work request built and posted
  double cpu_doorbell_ns = 0;         // per batch (one doorbell)
  double cpu_poll_completion_ns = 0;  // per completion polled
  double cpu_wakeup_ns = 0;           // waking a parked coroutine of the same server

  // Network.
  double link_bandwidth_gbps = 0;  // per direction
  double link_latency_ns = 0;      // one way, including the switch
  uint64_t link_packet_overhead_bytes = 0;
  uint64_t link_mtu_bytes = 0;

  // NIC.
  double nic_latency_ns = 0;     // pipeline latency of each NIC traversal
  double nic_outbound_mops = 0;  // requests a NIC issues per second (millions)
  double nic_inbound_mops = 0;   // requests a NIC serves per second (millions)

  // PCIe between the NIC and host memory.
  double pcie_read_latency_ns = 0;   // a DMA read's round trip
  double pcie_write_latency_ns = 0;  // until a DMA write is visible in memory
  double pcie_bandwidth_gbps = 0;    // per direction

  // NIC on-chip memory.
  uint64_t on_chip_memory_kib = 0;
  double on_chip_access_ns = 0;

  // Atomics: a bucket per address pattern; one atomic at a time per bucket.
  uint64_t atomic_buckets = 0;   // power of two; bucket = low address bits
  double atomic_on_chip_ns = 0;  // bucket occupancy of an on-chip atomic
  // A host-memory atomic occupies its bucket for a PCIe read plus, unless a
  // CAS fails, a PCIe write.

  uint64_t cacheline_bytes = 0;
  DmaOrder dma_read_order = DmaOrder::kAscending;

  // Throws ConfigError naming the file and the field.
  static NicProfile Load(const std::string& file);
  static NicProfile FromJson(JsonObjectReader& reader);
  // By name (configs/nic/NAME.json under ConfigDirectory()) or by path (a
  // name with a '/' or ending in .json); an unknown name lists the known ones.
  static NicProfile Find(const std::string& name_or_path);
  // Every parameter, for result files.
  nlohmann::json ToJson() const;
};

const char* DmaOrderName(DmaOrder order);
// "ascending", "descending" or "random"; ConfigError otherwise.
DmaOrder ParseDmaOrder(const std::string& name);

// The directory of config files: $DMBENCH_CONFIG_DIR if set, else the source
// tree's configs/.
std::string ConfigDirectory();

}  // namespace dmbench::rdma::sim
