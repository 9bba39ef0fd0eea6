// Bulkload: builds the tree bottom-up from sorted keys, as the paper's
// experiments do before each run (§5.1: 80% full).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "harness/rdma/chunk_allocator.h"
#include "harness/util/random.h"
#include "indexes/blink/blink_tree.h"
#include "indexes/blink/blink_tree_internals.h"
#include "indexes/common/index_layout.h"

namespace dmbench::indexes {

void BLinkTree::Bulkload(rdma::Client& client, std::span<const KeyValue> sorted,
                         double fill_factor) {
  if (!(fill_factor > 0 && fill_factor <= 1)) {
    throw std::invalid_argument("bulkload fill factor must be in (0, 1], got " +
                                std::to_string(fill_factor));
  }
  for (size_t i = 0; i < sorted.size(); ++i) {
    const uint64_t key = sorted[i].first;
    if (key < kMinUserKey || key > kMaxUserKey || (i > 0 && key <= sorted[i - 1].first)) {
      throw std::invalid_argument(
          "bulkload keys must be strictly ascending in [1, 2^64 - 2]; "
          "entry " +
          std::to_string(i) + " is " + std::to_string(key));
    }
  }
  const auto per_leaf =
      static_cast<size_t>(std::max<double>(1, std::floor(format_.leaf_capacity() * fill_factor)));
  // An internal node of n entries has n + 1 children.
  const auto per_internal = static_cast<size_t>(
      std::max<double>(2, std::floor((format_.internal_capacity() + 1) * fill_factor)));
  Scratch& scratch = ScratchOf(client);

  // Nodes go to the memory servers in turn, one by one, so that neither the
  // leaves of a key range nor the internal nodes pile up on one server.
  uint64_t placed = 0;
  auto place = [&]() {
    return client.allocator().AllocateOn(client, format_.node_bytes(),
                                         static_cast<uint32_t>(placed++ % shape_.memory_servers));
  };
  // (low fence, address) of each node of the level being built.
  std::vector<std::pair<uint64_t, rdma::GlobalAddress>> level_nodes;
  const size_t leaves = std::max<size_t>(1, (sorted.size() + per_leaf - 1) / per_leaf);
  for (size_t i = 0; i < leaves; ++i) {
    level_nodes.emplace_back(i == 0 ? 0 : sorted[i * per_leaf].first, place());
  }
  for (size_t i = 0; i < leaves; ++i) {
    NodeImage leaf = EmptyLeaf();
    leaf.low_fence = level_nodes[i].first;
    leaf.high_fence = i + 1 < leaves ? level_nodes[i + 1].first : kInfinity;
    leaf.sibling = i + 1 < leaves ? level_nodes[i + 1].second : rdma::GlobalAddress::Null();
    const size_t begin = i * per_leaf;
    const size_t end = std::min(sorted.size(), begin + per_leaf);
    if (!format_.unsorted_leaves()) leaf.slots.resize(end - begin);
    for (size_t k = begin; k < end; ++k) {
      leaf.slots[k - begin] = LeafSlot{sorted[k].first, sorted[k].second};
    }
    format_.Encode(leaf, scratch.node.data());
    client.Write(level_nodes[i].second, scratch.node.data(), format_.node_bytes());
  }

  uint8_t level = 0;
  while (level_nodes.size() > 1) {
    ++level;
    std::vector<std::pair<uint64_t, rdma::GlobalAddress>> parents;
    const size_t count = (level_nodes.size() + per_internal - 1) / per_internal;
    for (size_t i = 0; i < count; ++i) {
      parents.emplace_back(level_nodes[i * per_internal].first, place());
    }
    for (size_t i = 0; i < count; ++i) {
      NodeImage node;
      node.level = level;
      node.low_fence = parents[i].first;
      node.high_fence = i + 1 < count ? parents[i + 1].first : kInfinity;
      node.sibling = i + 1 < count ? parents[i + 1].second : rdma::GlobalAddress::Null();
      const size_t begin = i * per_internal;
      const size_t end = std::min(level_nodes.size(), begin + per_internal);
      node.leftmost = level_nodes[begin].second;
      for (size_t c = begin + 1; c < end; ++c) {
        node.entries.push_back({level_nodes[c].first, level_nodes[c].second});
      }
      format_.Encode(node, scratch.node.data());
      client.Write(parents[i].second, scratch.node.data(), format_.node_bytes());
    }
    level_nodes = std::move(parents);
  }

  const uint64_t root = level_nodes.front().second.Pack();
  client.Write(rdma::GlobalAddress::Host(0, IndexLayout::kRootPointerOffset), &root, sizeof(root));
  // Every compute server starts from a cold cache over the new tree.
  for (size_t i = 0; i < compute_servers_.size(); ++i) {
    compute_servers_[i] = std::make_unique<ComputeServerState>(options_.cache_bytes,
                                                               DeriveSeed(seed_, i), cached_nodes_);
  }
}

}  // namespace dmbench::indexes
