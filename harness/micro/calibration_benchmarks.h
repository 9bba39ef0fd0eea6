// The public calibration targets of a NIC profile in one run: the unloaded
// round trip, the small-message rates of one NIC, WRITE bandwidth, and
// same-address CAS on host and on-chip memory. Each is an ordinary verbs or
// atomics benchmark point, so the report reads them like any other.
#pragma once

#include <ostream>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/micro/micro_runner.h"

namespace dmbench::micro {

// One benchmark document per measurement, in the order above.
std::vector<nlohmann::json> RunCalibrationBenchmarks(const MicroOptions& options,
                                                     std::ostream& table);

}  // namespace dmbench::micro
