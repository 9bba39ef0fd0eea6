// The compute server of a real cluster, as one process sees it: connections
// from each of its client threads to every memory server (`dmbench serve`),
// the threads themselves, and cluster-wide barriers through atomics on
// memory server 0, which let several compute-server processes bulkload,
// start and stop together.
//
// Failures never hang a run: a failed completion names its verb and status;
// a memory server that closes its connections (it died) aborts the run with
// its name; a batch with no completion within completion_timeout_ms fails.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/rdma/cluster.h"
#include "harness/rdma/substrate_options.h"
#include "harness/rdma/topology.h"
#include "harness/rdma/verbs/cm_connection.h"
#include "harness/rdma/verbs/endpoint.h"
#include "harness/rdma/verbs/rdma_device.h"
#include "harness/rdma/verbs/verbs_options.h"

namespace dmbench::rdma::verbs {

class VerbsThread;

class VerbsCluster final : public Cluster {
 public:
  // Connects every client thread of compute server options.compute_server
  // to every memory server. Throws ConfigError for bad options and
  // VerbError for what the fabric refuses, each naming the peer. The
  // substrate's techniques run on every client thread; a per-thread doorbell
  // the device cannot give is a fallback (fallbacks()), not an error.
  // `seed`: of the techniques' random streams.
  VerbsCluster(const Topology& topology, const VerbsOptions& options,
               const SubstrateOptions& substrate = {}, uint64_t seed = 1);
  ~VerbsCluster() override;

  // Runs `body` on this compute server's clients (client indices are dense
  // over the whole cluster, as on every backend).
  void RunClients(const ClientBody& body) override;
  const ClusterShape& shape() const override { return shape_; }

  // When this process saw every compute server arrive at barrier `phase`,
  // on its own monotonic clock, and how late it may have seen it: the
  // moment is common to the cluster up to that uncertainty.
  struct BarrierPassage {
    uint64_t released_ns = 0;
    uint64_t uncertainty_ns = 0;
  };
  BarrierPassage Barrier(uint32_t phase, const std::string& name);

  // Device, connections and fallbacks, for the result file.
  nlohmann::json Describe() const;
  std::vector<std::string> fallbacks() const;
  uint32_t compute_server() const { return options_.compute_server; }

  // For the clients and threads of this cluster.
  const RdmaDevice& device() const { return *device_; }
  std::string ServerLabel(uint16_t server) const;
  uint64_t completion_timeout_ns() const {
    return uint64_t{options_.completion_timeout_ms} * 1000000;
  }
  bool aborting() const { return aborting_.load(std::memory_order_acquire); }
  std::string abort_reason() const;
  // Throws VerbError("run aborted: <reason>") once the run is aborting.
  void ThrowIfAborting() const;
  // Stops the run on every thread; the first reason is kept.
  void Abort(const std::string& reason);

 private:
  // Throws ConfigError before anything is opened: bad options should not
  // wait for an RDMA device to be reported.
  static VerbsOptions Checked(const Topology& topology, const VerbsOptions& options);
  static std::vector<Endpoint> ParseEndpoints(const std::vector<std::string>& servers);
  struct ServerTag {
    uint16_t server = 0;
  };
  // `client_thread`: its QPs get a doorbell of their own when the substrate
  // asks for it (the barrier thread's do not).
  std::unique_ptr<VerbsThread> ConnectThread(uint32_t index, uint32_t servers,
                                             const sockaddr* source, bool client_thread);
  // Per-thread doorbells: the new thread's domain, or none once the device
  // has refused one (the refusal kept in doorbell_refusal_).
  void OpenThreadDomain(VerbsThread& thread);
  void MonitorConnections();

  Topology topology_;
  VerbsOptions options_;
  SubstrateOptions substrate_;
  std::string doorbell_refusal_;  // why the device gave no thread domain, if it did not
  ClusterShape shape_;
  std::vector<Endpoint> endpoints_;
  std::vector<ServerTag> server_tags_;
  CmEventChannel channel_;
  std::unique_ptr<RdmaDevice> device_;
  std::vector<std::unique_ptr<VerbsThread>> threads_;
  // Barriers run on a connection of their own to memory server 0.
  std::unique_ptr<VerbsThread> control_;

  mutable std::mutex abort_mutex_;
  std::string abort_reason_;
  std::atomic<bool> aborting_{false};
  std::atomic<bool> stop_monitor_{false};
  std::thread monitor_;
};

}  // namespace dmbench::rdma::verbs
