// The driver's fabrics, one per backend (fabric.h); MakeFabric picks one.
#pragma once

#include <memory>

#include "harness/driver/fabric.h"

namespace dmbench::driver {

std::unique_ptr<Fabric> MakeSimFabric(const RunConfig& config);
std::unique_ptr<Fabric> MakeVerbsFabric(const RunConfig& config);

}  // namespace dmbench::driver
