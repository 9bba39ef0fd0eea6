#include "harness/driver/fabric.h"

#include "harness/driver/backend_fabrics.h"

namespace dmbench::driver {

std::unique_ptr<Fabric> MakeFabric(const RunConfig& config) {
  return config.backend.type == "verbs" ? MakeVerbsFabric(config) : MakeSimFabric(config);
}

}  // namespace dmbench::driver
