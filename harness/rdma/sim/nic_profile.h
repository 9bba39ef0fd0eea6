// The parameters of the simulated fabric, loaded from configs/nic/*.json.
//
// A profile file gives every parameter as {"value": ..., "source": "..."} so
// that each number in the model can be traced to where it came from. All
// parameters are required; unknown keys are rejected. Each parameter is
// declared once, in nic_parameters.cc: the file reader, the override reader,
// the result echo and the generated calibration document all walk that list.
//
// Mechanisms of the model that a user may want to see the contribution of
// have an "off" value: processing_units 0 (no head-of-line blocking at the
// responder), atomic_bucket_arbitration "fifo", and 0 for each per-operation
// CPU cost. With all of them off the fabric behaves exactly as it did before
// they existed.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "harness/rdma/sim/sim_time.h"

namespace dmbench {
class JsonObjectReader;
}

namespace dmbench::rdma::sim {

// The order in which a NIC's DMA engine fetches the cachelines of one READ.
enum class DmaOrder { kAscending, kDescending, kRandom };

// Which waiting atomic an atomic bucket serves when it frees up.
enum class BucketArbitration { kFifo, kRandom };

struct NicProfile {
  std::string name;
  std::string description;  // the profile file's, for the calibration document

  // Compute side: CPU time of the posting thread.
  double cpu_post_request_ns = 0;     // per work request built and posted
  double cpu_doorbell_ns = 0;         // per batch (one doorbell)
  double cpu_poll_completion_ns = 0;  // per completion polled
  double cpu_wakeup_ns = 0;           // waking a parked coroutine of the same server
  double cpu_lock_spinner_ns = 0;     // added to a lock hand-off per other waiter
  // Compute side: CPU time per piece of index and driver work (rdma::CpuWork).
  double cpu_index_cache_lookup_ns = 0;  // per index-cache lookup
  double cpu_key_generation_ns = 0;      // per operation the workload generates
  double cpu_crc_ns_per_byte = 0;        // per byte checksummed
  double cpu_coroutine_switch_ns = 0;    // per resumption of a suspended client

  // Network.
  double link_bandwidth_gbps = 0;  // per direction
  double link_latency_ns = 0;      // one way, including the switch
  uint64_t link_packet_overhead_bytes = 0;
  uint64_t link_mtu_bytes = 0;

  // NIC.
  double nic_latency_ns = 0;     // pipeline latency of each NIC traversal
  double nic_outbound_mops = 0;  // requests a NIC issues per second (millions)
  double nic_inbound_mops = 0;   // requests a NIC serves per second (millions)
  // Responder processing units: each QP is bound to one (by a hash); a unit
  // serves its requests in order, and an atomic holds it until the atomic's
  // bucket grants it and its memory read returns. 0: no units are modelled.
  uint64_t processing_units = 0;
  // Atomics a NIC can hold aside while they wait for a busy bucket, freeing
  // their processing unit; beyond that a waiting atomic holds its unit.
  uint64_t atomic_parking_slots = 0;
  // Requester doorbells (SMART, ASPLOS'24 §2.2, §3.1): a device context's
  // QPs ring `doorbells_dedicated` registers of their own (the first QPs
  // created) and share the `doorbells_shared` others round-robin; a shared
  // register's update is a spinlocked critical section of cpu_doorbell_ns
  // that takes cpu_doorbell_spinner_ns longer per thread queued on it.
  // doorbells_shared 0: no doorbell contention is modelled.
  uint64_t doorbells_dedicated = 0;
  uint64_t doorbells_shared = 0;
  double cpu_doorbell_spinner_ns = 0;
  // The requester NIC's cache of outstanding work requests (SMART §3.2):
  // with more outstanding than it holds, a work request misses with
  // probability 1 - entries / outstanding and occupies the NIC's message
  // engine wqe_miss_ns longer (the PCIe read of its metadata). 0: no cache
  // is modelled.
  uint64_t wqe_cache_entries = 0;
  double wqe_miss_ns = 0;

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
  BucketArbitration atomic_bucket_arbitration = BucketArbitration::kFifo;

  uint64_t cacheline_bytes = 0;
  DmaOrder dma_read_order = DmaOrder::kAscending;

  // Where each value came from, by parameter key (from the profile file;
  // an override replaces the source with a note saying so).
  std::map<std::string, std::string> sources;

  // Throws ConfigError naming the file and the field.
  static NicProfile Load(const std::string& file);
  static NicProfile FromJson(JsonObjectReader& reader);
  // By name (configs/nic/NAME.json under ConfigDirectory()) or by path (a
  // name with a '/' or ending in .json); an unknown name lists the known ones.
  static NicProfile Find(const std::string& name_or_path);
  // Replaces parameters by plain values ({"processing_units": 0}), each
  // checked as in a profile file; `origin` says where they came from and
  // becomes their source. ConfigError names the field.
  void ApplyOverrides(JsonObjectReader& overrides, const std::string& origin);
  // Every parameter, for result files.
  nlohmann::json ToJson() const;
  // The calibration document: every parameter with its meaning, value and
  // source, as Markdown (configs/nic/NAME.md is this, generated).
  std::string CalibrationMarkdown() const;
};

const char* DmaOrderName(DmaOrder order);
// "ascending", "descending" or "random"; ConfigError otherwise.
DmaOrder ParseDmaOrder(const std::string& name);
const char* BucketArbitrationName(BucketArbitration arbitration);
// "fifo" or "random"; ConfigError otherwise.
BucketArbitration ParseBucketArbitration(const std::string& name);

// The directory of config files: $DMBENCH_CONFIG_DIR if set, else the source
// tree's configs/.
std::string ConfigDirectory();

}  // namespace dmbench::rdma::sim
