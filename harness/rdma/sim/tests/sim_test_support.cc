#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::rdma::sim::test_support {

std::string NicProfilePath(const std::string& name) {
  return std::string(DMBENCH_SOURCE_DIR) + "/configs/nic/" + name + ".json";
}

NicProfile DefaultProfile() { return NicProfile::Load(NicProfilePath("cx5-100g")); }

Topology SmallTopology(uint32_t memory_servers, uint32_t compute_servers, uint32_t coroutines) {
  Topology topology;
  topology.memory_servers = memory_servers;
  topology.compute_servers = compute_servers;
  topology.threads_per_compute_server = 1;
  topology.coroutines_per_thread = coroutines;
  topology.colocated = false;
  topology.host_memory_mib = 64;
  topology.chunk_mib = 1;
  return topology;
}

std::unique_ptr<SimCluster> MakeCluster(const Topology& topology, const NicProfile& profile,
                                        uint64_t seed) {
  SimOptions options;
  options.seed = seed;
  return MakeCluster(topology, profile, options);
}

std::unique_ptr<SimCluster> MakeCluster(const Topology& topology, const NicProfile& profile,
                                        const SimOptions& options) {
  return std::make_unique<SimCluster>(topology, profile, options);
}

}  // namespace dmbench::rdma::sim::test_support
