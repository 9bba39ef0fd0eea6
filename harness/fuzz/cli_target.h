// The command line end to end: `dmbench run`, `sweep --list`, `nic
// --describe` and `merge` on fuzzed files, and every command on a soup of
// options and values, each in a process of its own under a time limit. A
// case must end in exit status 0 (success), 1 (a run failed), 2 (bad input)
// or 3 (consistency violations) with a clear message; a signal, another
// status or the time limit is a finding.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "harness/fuzz/config_inputs.h"
#include "harness/fuzz/fuzz_case.h"
#include "harness/fuzz/merge_inputs.h"

namespace dmbench::fuzz {

struct CliTargetOptions {
  std::string binary;  // the dmbench to run
  std::filesystem::path scratch;
  double timeout_seconds = 60;
};

// `inputs` and `merge_inputs` must outlive the target.
std::unique_ptr<FuzzTarget> MakeCliTarget(const ConfigInputs& inputs,
                                          const MergeInputs& merge_inputs,
                                          const CliTargetOptions& options);

}  // namespace dmbench::fuzz
