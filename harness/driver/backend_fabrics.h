// The driver's fabrics, one per backend (fabric.h); MakeFabric picks one.
#pragma once

#include <memory>

#include "harness/driver/fabric.h"
#include "harness/rdma/sim/nic_profile.h"

namespace dmbench::driver {

std::unique_ptr<Fabric> MakeSimFabric(const RunConfig& config);
// The NIC profile a sim config runs on: backend.nic with its overrides.
rdma::sim::NicProfile SimNicProfile(const RunConfig& config);
std::unique_ptr<Fabric> MakeVerbsFabric(const RunConfig& config);

}  // namespace dmbench::driver
