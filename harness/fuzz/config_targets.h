// In-process fuzz targets for the configuration a user writes: run configs,
// "--set" overrides, experiment files and NIC profiles, each read by the
// same function the command line uses.
#pragma once

#include <filesystem>
#include <memory>

#include "harness/fuzz/config_inputs.h"
#include "harness/fuzz/fuzz_case.h"

namespace dmbench::fuzz {

// Files are written under `scratch` and read from there. `inputs` must
// outlive the targets.
std::unique_ptr<FuzzTarget> MakeRunConfigTarget(const ConfigInputs& inputs,
                                                const std::filesystem::path& scratch);
std::unique_ptr<FuzzTarget> MakeSetOverrideTarget(const ConfigInputs& inputs);
std::unique_ptr<FuzzTarget> MakeExperimentTarget(const ConfigInputs& inputs,
                                                 const std::filesystem::path& scratch);
std::unique_ptr<FuzzTarget> MakeNicProfileTarget(const ConfigInputs& inputs,
                                                 const std::filesystem::path& scratch);

}  // namespace dmbench::fuzz
