// The simulated fabric: a deterministic discrete-event simulation of memory
// servers, compute servers, NICs, links and PCIe, running every client as a
// coroutine on one OS thread. Memory holds real bytes and index code runs for
// real; only time is simulated.
//
// The NICs, links and PCIe buses (when each work request executes and
// completes) are the NicModel's (nic_model.h); this class builds the
// topology, holds the memory and the clients, and runs the event loop.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "harness/rdma/client.h"
#include "harness/rdma/cluster.h"
#include "harness/rdma/sim/event_queue.h"
#include "harness/rdma/sim/memory_region.h"
#include "harness/rdma/sim/nic_model.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/rdma/sim/sim_client.h"
#include "harness/rdma/substrate_options.h"
#include "harness/rdma/topology.h"
#include "harness/util/random.h"

namespace dmbench::rdma::sim {

struct SimOptions {
  uint64_t seed = 1;
  // A run whose simulated clock passes this is stopped with an error rather
  // than left to spin (e.g. a client that never finishes).
  double time_limit_seconds = 3600;
  size_t stack_bytes = 256 * 1024;
  // Client::WriteDeferred leaves blocks to be built on first touch; false
  // writes them at once, one simulated Write each, as real backends do.
  bool deferred_writes = true;
  // A READ whose post is scheduled at once is resolved when its client
  // resumes rather than by an event of its own (NicModel::Post): the same
  // bytes with fewer events. false resolves every READ by its event, for
  // tests that check the two agree.
  bool reads_at_resume = true;
  SubstrateOptions substrate;
};

// What one Run() cost in wall time and did in simulated time.
struct SimRunStats {
  double wall_seconds = 0;
  // CPU time of the thread that ran it (util/thread_cpu_clock.h): the wall
  // time less what other work on the machine took.
  double cpu_seconds = 0;
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
  // The shape a cluster of `topology` on `profile` offers, before making it.
  static ClusterShape ShapeOf(const Topology& topology, const NicProfile& profile);
  const Topology& topology() const { return topology_; }
  const NicProfile& profile() const { return profile_; }
  const SimOptions& options() const { return options_; }
  SimTime now() const { return now_; }
  // Raw memory, outside simulated time (test set-up and inspection); the
  // NIC model's way to memory too, a few times a verb, hence inline.
  MemoryRegion& memory(uint16_t server, MemorySpace space) {
    const auto& regions = space == MemorySpace::kHost ? host_memory_ : on_chip_memory_;
    if (server >= regions.size()) NoSuchMemory(server, space);  // cold: it never returns
    return *regions[server];
  }
  uint64_t torn_reads() const;
  // READs resolved at their client's resumption, without an event (over
  // every run so far).
  uint64_t reads_resolved_at_resume() const { return reads_resolved_at_resume_; }

 private:
  friend class SimClient;

  // Counts the verbs and hands them to the NIC model.
  void Post(SimClient& client, std::span<const std::span<WorkRequest>> batches);
  // The same for a batch nobody waits for; `batch` (event group `group`) and
  // `requests` live until the kDetachedDone event.
  void PostWithoutWaiting(SimClient& client, SimClient::InFlightBatch& batch,
                          std::span<WorkRequest> requests, uint16_t group);
  void Wake(SimClient& client, SimTime at);
  // Throws the error of memory() for a region the cluster does not have.
  [[noreturn]] void NoSuchMemory(uint16_t server, MemorySpace space) const;
  void Dispatch(const Event& event);
  // Resolves READ `index` of `client`'s batch `group` (its DMA has ended).
  void ExecuteRead(SimClient& client, uint16_t group, uint32_t index);
  // Called while the event before the client's is dispatched: a client's
  // object (one of 176 in the paper's topology) has left the CPU's caches by
  // its turn, and one event's work is time enough to fetch it. Null (a NIC's
  // event) does nothing.
  static void PrefetchClient(const SimClient* client);

  Topology topology_;
  NicProfile profile_;
  SimOptions options_;
  ClusterShape shape_;
  Random random_;

  std::vector<std::unique_ptr<MemoryRegion>> host_memory_;
  std::vector<std::unique_ptr<MemoryRegion>> on_chip_memory_;
  std::vector<std::unique_ptr<SimThread>> threads_;
  std::vector<std::unique_ptr<SimClient>> clients_;

  EventQueue events_;
  NicModel nic_model_;
  SimTime now_ = 0;
  uint64_t verbs_ = 0;
  uint64_t batches_ = 0;
  uint64_t reads_resolved_at_resume_ = 0;  // READs that had no event of their own
};

}  // namespace dmbench::rdma::sim
