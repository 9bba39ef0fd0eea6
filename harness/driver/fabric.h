// What the benchmark driver needs of a backend beyond rdma::Cluster: runs
// whose statistics it can report, cluster-wide synchronisation between the
// processes of a real cluster, and the backend's part of the result file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "harness/driver/run_config.h"
#include "harness/rdma/cluster.h"

namespace dmbench::driver {

class Fabric {
 public:
  virtual ~Fabric() = default;

  virtual rdma::Cluster& cluster() = 0;
  // Runs `body` on this process's clients; `measured` marks the run whose
  // figures the result reports (the warm-up and measured window).
  virtual void Run(const rdma::Cluster::ClientBody& body, bool measured) = 0;

  // A moment common to every compute-server process, on this process's
  // clients' clock, known up to `uncertainty_ns`.
  struct Moment {
    uint64_t at_ns = 0;
    uint64_t uncertainty_ns = 0;
  };
  // Waits until every compute-server process arrives at barrier `phase`.
  virtual Moment Synchronize(uint32_t phase, const std::string& name) = 0;
  // This process's clients' indices: [first, first + count).
  virtual uint32_t first_local_client() const = 0;
  virtual uint32_t local_clients() const = 0;
  // Where a client records its statistics: clients that share a slot never
  // run at once (one OS thread runs them all), so a slot needs no lock. One
  // slot per client unless a backend knows better: the simulated fabric runs
  // every client on one thread, and a slot per client there would hold
  // hundreds of megabytes of histograms that every operation misses in the
  // CPU cache. Merging is exact (integer counts), so results do not depend on
  // the slots.
  virtual uint32_t statistics_slots() { return cluster().shape().clients; }
  virtual uint32_t StatisticsSlotOf(const rdma::ClientLocation& client) const {
    return client.index;
  }
  // "simulated" or "wall-clock": what the run's milliseconds are.
  virtual const char* clock_name() const = 0;

  // The result's "backend" object.
  virtual nlohmann::json BackendJson() const = 0;
  // Backend-specific result sections ("simulator", parts of "wall_clock").
  virtual void AddResultSections(nlohmann::json& result, uint64_t executed) const = 0;
};

// The fabric a config asks for: the simulated one, or a real cluster.
std::unique_ptr<Fabric> MakeFabric(const RunConfig& config);

// Whether other processes run clients of the same cluster as MakeFabric's
// fabric (their results and histories are combined by `dmbench merge`).
// Known from the config, so that a command can refuse what such a run needs
// and lacks before it runs.
bool SharedWithOtherProcesses(const RunConfig& config);

}  // namespace dmbench::driver
