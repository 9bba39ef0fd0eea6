// Builds a tree with the lock protocol its options ask for: Sherman's
// hierarchical lock when `hierarchical` is on, else FG+'s remote spin lock.
#pragma once

#include <memory>

#include "indexes/common/blink_tree.h"
#include "indexes/common/node_locker.h"

namespace dmbench::indexes {

std::unique_ptr<BLinkTree> MakeTree(const TreeOptions& options, const rdma::ClusterShape& shape,
                                    uint64_t seed);

// The node locker `options` ask for over `table` (which must outlive it), for
// a cluster of `compute_servers`. The trees await their releases; the lock
// benchmark posts them without waiting (WriteBackPolicy::await_release).
std::unique_ptr<NodeLocker> MakeNodeLocker(const TreeOptions& options, const GlobalLockTable& table,
                                           uint32_t compute_servers, bool await_release = true);

}  // namespace dmbench::indexes
