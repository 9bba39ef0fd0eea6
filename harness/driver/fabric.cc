#include "harness/driver/fabric.h"

#include "harness/driver/backend_fabrics.h"

namespace dmbench::driver {

std::unique_ptr<Fabric> MakeFabric(const RunConfig& config) {
  return config.backend.type == "verbs" ? MakeVerbsFabric(config) : MakeSimFabric(config);
}

bool SharedWithOtherProcesses(const RunConfig& config) {
  // The simulated fabric holds every compute server in one process; a real
  // cluster runs one process per compute server.
  return config.backend.type == "verbs" && config.topology.compute_servers > 1;
}

}  // namespace dmbench::driver
