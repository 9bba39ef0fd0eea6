// In-process fuzz target for what a compute server reads off the network
// before anything else: the memory server's connection private data
// (MemoryServerInfo), random, truncated, damaged, of a wrong magic or
// protocol version.
#pragma once

#include <memory>

#include "harness/fuzz/fuzz_case.h"

namespace dmbench::fuzz {

std::unique_ptr<FuzzTarget> MakePrivateDataTarget();

}  // namespace dmbench::fuzz
