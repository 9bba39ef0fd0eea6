// The named index setups a config's `index.preset` picks: an engine and the
// engine's options, which the rest of the config's index section then edits
// (so "+Hierarchical" in a breakdown is the fgplus preset with toggles on).
// A preset may also name substrate techniques (SMART-BT is an index and the
// SMART techniques under it): they are the defaults the config's substrate
// section then edits.
// Adding a preset is one row in index_presets.cc.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/rdma/substrate_options.h"
#include "indexes/blink/tree_options.h"

namespace dmbench::indexes {

// The engines an index can run on; `blink` is the B-link tree engine
// (indexes/blink/).
inline constexpr std::string_view kBLinkEngine = "blink";

struct IndexPreset {
  std::string_view name;
  std::string_view engine;
  std::string_view description;
  TreeOptions (*blink_options)();  // engine "blink": the preset's TreeOptions
  // The substrate techniques the preset runs with; null: none.
  rdma::SubstrateOptions (*substrate_options)() = nullptr;

  rdma::SubstrateOptions Substrate() const {
    return substrate_options != nullptr ? substrate_options() : rdma::SubstrateOptions{};
  }
};

std::span<const IndexPreset> IndexPresets();
std::vector<std::string> IndexEngineNames();
// The names of the presets that run on `engine`.
std::vector<std::string> IndexPresetNames(std::string_view engine);
// Throws ConfigError naming the presets that exist when `name` is none of them.
const IndexPreset& FindIndexPreset(std::string_view name);

}  // namespace dmbench::indexes
