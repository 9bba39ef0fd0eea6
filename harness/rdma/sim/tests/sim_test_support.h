// Shared set-up for tests on the simulated fabric.
#pragma once

#include <memory>
#include <string>

#include "harness/rdma/sim/sim_cluster.h"

namespace dmbench::rdma::sim::test_support {

// The default profile, configs/nic/cx5-100g.json.
NicProfile DefaultProfile();
std::string NicProfilePath(const std::string& name);

// A small cluster: `memory_servers` x `compute_servers` (not co-located),
// one thread per compute server with `coroutines` coroutines, 64 MiB each.
Topology SmallTopology(uint32_t memory_servers, uint32_t compute_servers, uint32_t coroutines);

std::unique_ptr<SimCluster> MakeCluster(const Topology& topology,
                                        const NicProfile& profile = DefaultProfile(),
                                        uint64_t seed = 1);
std::unique_ptr<SimCluster> MakeCluster(const Topology& topology, const NicProfile& profile,
                                        const SimOptions& options);

}  // namespace dmbench::rdma::sim::test_support
