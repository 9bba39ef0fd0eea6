// In-process fuzz target for YCSB trace files (workload.trace and
// workload.trace_load): lines of YCSB's basic database output, damaged
// (unknown verbs, missing keys, bad or huge scan counts, stray bytes, NULs,
// carriage returns, truncation, very long lines, operations other than INSERT
// in a load file), read and replayed by a TraceWorkload.
#pragma once

#include <filesystem>
#include <memory>

#include "harness/fuzz/fuzz_case.h"

namespace dmbench::fuzz {

// Trace files are written under `scratch`, which must outlive the target.
std::unique_ptr<FuzzTarget> MakeYcsbTraceTarget(const std::filesystem::path& scratch);

}  // namespace dmbench::fuzz
