// The simulated fabric: a deterministic discrete-event simulation of memory
// servers, compute servers, NICs, links and PCIe, running every client as a
// coroutine on one OS thread. Memory holds real bytes and index code runs for
// real; only time is simulated.
//
// Timing of a work request: the posting thread's CPU (per-WR and doorbell
// costs), the requester NIC's message engine, the link (serialization at both
// ends plus latency), the responder NIC's message engine, then the memory
// access: PCIe DMA for host memory, nothing for on-chip memory, the atomic
// unit for atomics (one atomic per address bucket at a time; a host atomic
// holds its bucket for a PCIe read and, unless a CAS fails, a PCIe write).
// The response travels back the same way. Work requests on one QP (one per
// thread and memory server) take effect in posting order.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "harness/rdma/client.h"
#include "harness/rdma/cluster.h"
#include "harness/rdma/sim/event_queue.h"
#include "harness/rdma/sim/memory_region.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/rdma/sim/serial_resource.h"
#include "harness/rdma/sim/sim_client.h"
#include "harness/rdma/topology.h"
#include "harness/util/random.h"

namespace dmbench::rdma::sim {

struct SimOptions {
  uint64_t seed = 1;
  // A run whose simulated clock passes this is stopped with an error rather
  // than left to spin (e.g. a client that never finishes).
  double time_limit_seconds = 3600;
  size_t stack_bytes = 256 * 1024;
};

// What one Run() cost in wall time and did in simulated time.
struct SimRunStats {
  double wall_seconds = 0;
  double simulated_seconds = 0;  // of this run
  uint64_t events = 0;
  uint64_t verbs = 0;
  uint64_t batches = 0;
  double verbs_per_wall_second() const { return wall_seconds > 0 ? verbs / wall_seconds : 0; }
  double events_per_wall_second() const { return wall_seconds > 0 ? events / wall_seconds : 0; }
};

class SimCluster final : public Cluster {
 public:
  SimCluster(const Topology& topology, const NicProfile& profile, const SimOptions& options);
  ~SimCluster() override;

  // Runs `body` on every client (each a coroutine) until all return. Memory
  // and simulated time carry over between runs (e.g. bulkload, then measure).
  // Exceptions from a client propagate; a run where clients block forever
  // fails with an error instead of hanging.
  SimRunStats Run(const ClientBody& body);
  void RunClients(const ClientBody& body) override { Run(body); }

  const ClusterShape& shape() const override { return shape_; }
  const Topology& topology() const { return topology_; }
  const NicProfile& profile() const { return profile_; }
  SimTime now() const { return now_; }
  // Raw memory, outside simulated time (test set-up and inspection).
  MemoryRegion& memory(uint16_t server, MemorySpace space);
  uint64_t torn_reads() const;

 private:
  friend class SimClient;

  using Batch = SimClient::InFlightBatch;
  struct AtomicBucket {
    SimTime free_at = 0;
    Batch* head = nullptr;
    Batch* tail = nullptr;
    bool release_scheduled = false;
  };
  struct Nic {
    SerialResource outbound;  // message engine, requests issued
    SerialResource inbound;   // message engine, requests served
    SerialResource link_tx;
    SerialResource link_rx;
    SerialResource pcie_to_host;
    SerialResource pcie_to_nic;
    std::vector<AtomicBucket> buckets;
  };
  struct QueuePair {
    SimTime last_write_end = 0;   // everything after waits for writes
    SimTime last_access_end = 0;  // writes wait for everything before
  };

  void Post(SimClient& client, std::span<const std::span<WorkRequest>> batches);
  void Wake(SimClient& client, SimTime at);
  void ScheduleRequester(Batch& batch, SimTime posted);
  void ScheduleResponder(Batch& batch, uint32_t from);
  void Respond(Batch& batch, SimTime ready, uint32_t payload_bytes);
  void AtomicArrives(Batch& batch, uint32_t index);
  void ExecuteAtomic(Batch& batch, uint32_t index, AtomicBucket& bucket);
  void ReleaseBucket(uint16_t nic, uint32_t bucket);
  void Dispatch(const Event& event);

  Nic& RequesterNic(const SimClient& client) {
    return nics_[compute_nic_[client.location().compute_server]];
  }
  Nic& ResponderNic(uint16_t server) { return nics_[memory_nic_[server]]; }
  bool Loopback(const SimClient& client, uint16_t server) const {
    return compute_nic_[client.location().compute_server] == memory_nic_[server];
  }
  QueuePair& QueuePairOf(const SimClient& client, uint16_t server) {
    return queue_pairs_[static_cast<size_t>(client.thread_.index) * topology_.memory_servers +
                        server];
  }
  SimTime Wire(uint64_t payload_bytes) const;
  SimTime PcieTransfer(uint64_t bytes) const {
    return TransferTime(bytes, profile_.pcie_bandwidth_gbps);
  }
  uint32_t BucketOf(const GlobalAddress& address) const {
    return static_cast<uint32_t>(address.offset & (profile_.atomic_buckets - 1));
  }

  Topology topology_;
  NicProfile profile_;
  SimOptions options_;
  ClusterShape shape_;
  Random random_;

  // Derived once: service times in picoseconds.
  SimTime outbound_service_, inbound_service_, nic_latency_, link_latency_;
  SimTime pcie_read_latency_, pcie_write_latency_, on_chip_access_, atomic_on_chip_;

  std::vector<Nic> nics_;
  std::vector<uint16_t> compute_nic_;
  std::vector<uint16_t> memory_nic_;
  std::vector<std::unique_ptr<MemoryRegion>> host_memory_;
  std::vector<std::unique_ptr<MemoryRegion>> on_chip_memory_;
  std::vector<std::unique_ptr<SimThread>> threads_;
  std::vector<std::unique_ptr<SimClient>> clients_;
  std::vector<QueuePair> queue_pairs_;

  EventQueue events_;
  SimTime now_ = 0;
  uint64_t verbs_ = 0;
  uint64_t batches_ = 0;
};

}  // namespace dmbench::rdma::sim
