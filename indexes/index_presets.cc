#include "indexes/index_presets.h"

#include <algorithm>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::indexes {

namespace {

// SMART_OPTS=ThrdAwareAlloc,WorkReqThrot,ConflictAvoid of SMART's artifact
// (ae/collect/fig12abc-btree-scale-up.sh); ConflictAvoid is backoff with its
// dynamic limit and coroutine throttling (SMART §4.3, §6.3).
rdma::SubstrateOptions SmartTechniques() {
  rdma::SubstrateOptions options;
  options.per_thread_doorbells = true;
  options.work_request_throttling = rdma::WorkRequestThrottling::kAdaptive;
  options.cas_backoff = true;
  options.coroutine_throttling = true;
  return options;
}

constexpr IndexPreset kPresets[] = {
    {"sherman", kBLinkEngine,
     "Sherman (SIGMOD'22): two-level versions, combined write-back, hierarchical on-chip locks "
     "with handover",
     &TreeOptions::Sherman},
    {"fgplus", kBLinkEngine,
     "FG+ (the paper's baseline): CRC-checked nodes, in-node host-memory spin locks released by "
     "WRITE",
     &TreeOptions::FgPlus},
    {"shermanplus", kBLinkEngine,
     "Sherman+ (SMART, ASPLOS'24 §6.2.3): Sherman with per-cacheline versions in place of "
     "two-level versions",
     &TreeOptions::ShermanPlus},
    {"smartbt", kBLinkEngine,
     "SMART-BT (SMART, ASPLOS'24 §5): Sherman+ with speculative lookup, on the substrate with "
     "per-thread doorbells, adaptive work-request throttling and conflict avoidance",
     &TreeOptions::SmartBt, &SmartTechniques},
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
