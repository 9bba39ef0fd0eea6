#include "indexes/index_presets.h"

#include <algorithm>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::indexes {

namespace {

constexpr IndexPreset kPresets[] = {
    {"sherman", kBLinkEngine,
     "Sherman (SIGMOD'22): two-level versions, combined write-back, hierarchical on-chip locks "
     "with handover",
     &TreeOptions::Sherman},
    {"fgplus", kBLinkEngine,
     "FG+ (the paper's baseline): CRC-checked nodes, in-node host-memory spin locks released by "
     "WRITE",
     &TreeOptions::FgPlus},
};

}  // namespace

std::span<const IndexPreset> IndexPresets() { return kPresets; }

std::vector<std::string> IndexEngineNames() { return {std::string(kBLinkEngine)}; }

std::vector<std::string> IndexPresetNames(std::string_view engine) {
  std::vector<std::string> names;
  for (const IndexPreset& preset : kPresets) {
    if (preset.engine == engine) names.emplace_back(preset.name);
  }
  return names;
}

const IndexPreset& FindIndexPreset(std::string_view name) {
  const auto* found = std::find_if(std::begin(kPresets), std::end(kPresets),
                                   [&](const IndexPreset& preset) { return preset.name == name; });
  if (found == std::end(kPresets)) {
    std::vector<std::string> all;
    for (const IndexPreset& preset : kPresets) all.emplace_back(preset.name);
    throw ConfigError("index.preset: unknown preset '" + std::string(name) +
                      "'; allowed: " + CommaJoined(all));
  }
  return *found;
}

}  // namespace dmbench::indexes
