// Builds the index a config names: its engine, with the engine's options.
// The driver, the checker's runs and the tests get their indexes here, so
// that a new engine is wired in one place.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "harness/rdma/cluster.h"
#include "indexes/blink/tree_options.h"
#include "indexes/index.h"

namespace dmbench::indexes {

class BLinkTree;

// `engine` is one of IndexEngineNames() (index_presets.h); `options` must
// have passed Validate(shape). Throws ConfigError for an unknown engine.
std::unique_ptr<Index> MakeIndex(std::string_view engine, const TreeOptions& options,
                                 const rdma::ClusterShape& shape, uint64_t seed);

// The B-link engine with the lock protocol `options` ask for; for the
// engine's own tests, which look inside it (height, format, cache).
std::unique_ptr<BLinkTree> MakeBLinkTree(const TreeOptions& options,
                                         const rdma::ClusterShape& shape, uint64_t seed);

}  // namespace dmbench::indexes
