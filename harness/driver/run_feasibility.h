// Refuses, before anything is built, a run config that can never make
// progress: index options the backend cannot offer, a 4-bit version wrap
// window too short for READs of one node on the simulated NIC, and simulated
// memory servers too small for the bulkload. A user
// learns it at the prompt, not after a bulkload.
#pragma once

#include "harness/driver/run_config.h"

namespace dmbench::driver {

// How many unloaded node READs a 4-bit version wrap window must hold. A READ
// longer than the window is retried, so a window that holds exactly one
// unloaded READ trusts only READs of a memory server that nothing else is
// using, and any run of more than one client retries without end. Twice the
// unloaded time leaves room for the READ and one more READ of the same node
// queued ahead of it at each shared stage (link, NIC, PCIe): the least
// contention a concurrent run meets. Sherman's own setting keeps this margin
// and more: its 8 us window holds 3.6 unloaded READs of its 1 KiB nodes.
constexpr double kWrapWindowReads = 2;

// Throws ConfigError naming the fields, what they hold and the value that
// would work. Loads the NIC profile of a simulated-fabric config.
void CheckRunCanProgress(const RunConfig& config);

}  // namespace dmbench::driver
