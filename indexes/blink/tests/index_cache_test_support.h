// Nodes for the index cache's tests: internal nodes with numbered
// addresses and children, and the leaf a key routes to, found by a linear
// scan independent of the cache's search.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "harness/rdma/global_address.h"
#include "indexes/blink/index_cache.h"

namespace dmbench::indexes::test_support {

// What a cached node costs the caches under test (a 1 KiB node).
inline constexpr uint64_t kNodeBytes = 1024;

inline rdma::GlobalAddress NodeAt(uint64_t id) {
  return rdma::GlobalAddress::Host(1, 4096 * (id + 1));
}
inline rdma::GlobalAddress LeafAt(uint64_t id) {
  return rdma::GlobalAddress::Host(2, 4096 * (id + 1));
}

// Children are numbered first_leaf, first_leaf + 1, ... in key order.
inline CachedInternalNode MakeNode(uint64_t id, uint64_t low, uint64_t high,
                                   const std::vector<uint64_t>& separators, uint64_t first_leaf) {
  CachedInternalNode node{NodeAt(id), low, high, LeafAt(first_leaf), {}};
  for (size_t i = 0; i < separators.size(); ++i) {
    node.children.emplace_back(separators[i], LeafAt(first_leaf + 1 + i));
  }
  return node;
}

// Reference routing by linear scan, independent of the cache's binary search.
inline std::optional<rdma::GlobalAddress> ExpectedLeaf(const CachedInternalNode& node,
                                                       uint64_t key) {
  if (key < node.low_fence || key >= node.high_fence) return std::nullopt;
  rdma::GlobalAddress leaf = node.leftmost_child;
  for (const auto& [separator, child] : node.children) {
    if (key >= separator) leaf = child;
  }
  return leaf;
}

}  // namespace dmbench::indexes::test_support
