// Builds a tree with the lock protocol its options ask for: Sherman's
// hierarchical lock when `hierarchical` is on, else FG+'s remote spin lock.
#pragma once

#include <memory>

#include "indexes/common/blink_tree.h"

namespace dmbench::indexes {

std::unique_ptr<BLinkTree> MakeTree(const TreeOptions& options, const rdma::ClusterShape& shape,
                                    uint64_t seed);

}  // namespace dmbench::indexes
