// In-process fuzz target for `dmbench merge`: damaged result files and
// histories of a real-cluster run, merged by the function the command uses.
#pragma once

#include <filesystem>
#include <memory>

#include "harness/fuzz/fuzz_case.h"
#include "harness/fuzz/merge_inputs.h"

namespace dmbench::fuzz {

// Files go under `scratch`; `inputs` must outlive the target.
std::unique_ptr<FuzzTarget> MakeMergeTarget(const MergeInputs& inputs,
                                            const std::filesystem::path& scratch);

}  // namespace dmbench::fuzz
