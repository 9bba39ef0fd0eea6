// The bytes of a freshly bulkloaded B-link tree, node by node, as a pure
// function of its entries and its shape: what BLinkTree::Bulkload hands to
// Client::WriteDeferred, so that on the simulated fabric a node is built
// only when a run first touches it.
//
// The shape (each node's address and low key, level by level) is computed
// once, in one pass over the entries, and kept: 16 bytes per node, about
// 270 MB for the paper's 800 M bulkloaded keys. A leaf's entries are read
// from the source when it is built; an internal node needs only the level
// below it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "harness/rdma/deferred_content.h"
#include "indexes/blink/node_format.h"
#include "indexes/common/bulkload_source.h"

namespace dmbench::indexes {

class BulkloadImage final : public rdma::DeferredContent {
 public:
  // One level of the tree, leaves first: each node's low fence (0 for the
  // first node of a level) and its packed host address, in key order. Side
  // by side, not in two arrays: a leaf's build reads its fences and its
  // sibling's address, one line at 1 B keys instead of two misses to DRAM.
  struct Level {
    struct Node {
      uint64_t low_fence;
      uint64_t address;
    };
    std::vector<Node> in_key_order;
    size_t nodes() const { return in_key_order.size(); }
    uint64_t low_fence(size_t index) const { return in_key_order[index].low_fence; }
    rdma::GlobalAddress address(size_t index) const {
      return rdma::GlobalAddress::Unpack(in_key_order[index].address);
    }
  };

  // `levels` from the leaves up to the root (a single node); a leaf holds
  // `per_leaf` entries, an internal node `per_internal` children, the last
  // of each level the rest.
  BulkloadImage(const NodeFormat& format, std::shared_ptr<const BulkloadSource> source,
                std::vector<Level> levels, uint64_t per_leaf, uint64_t per_internal);

  uint64_t blocks() const override { return blocks_; }
  uint32_t block_bytes() const override { return format_.node_bytes(); }
  // Blocks are the leaves in key order, then each level above in turn.
  rdma::GlobalAddress address(uint64_t block) const override;
  void Fill(uint64_t block, std::span<uint8_t> out) const override;
  // A leaf's fences and its sibling's address, which Fill reads: its
  // level's (low fence, address) pairs, 16 bytes a leaf, 400 MB at 1 B keys.
  void Prefetch(uint64_t block) const override;

  rdma::GlobalAddress root() const;

  // The nodes of `level` (0: the leaves), 0 above the root; node `index` of
  // an internal level (1 and up, index in key order): where it is and what
  // it holds.
  uint64_t nodes(size_t level) const { return level < levels_.size() ? levels_[level].nodes() : 0; }
  rdma::GlobalAddress NodeAddress(size_t level, uint64_t index) const {
    return rdma::GlobalAddress::Unpack(levels_.at(level).in_key_order.at(index).address);
  }
  NodeImage Internal(size_t level, uint64_t index) const;

 private:
  // The level and the index in it of `block`.
  std::pair<size_t, uint64_t> Locate(uint64_t block) const;
  // Leaf `index` without its slots (its fences and sibling).
  NodeImage LeafFrame(uint64_t index) const;
  // How many entries leaf `index` holds: per_leaf_, the last one the rest.
  uint64_t LeafEntries(uint64_t index) const;
  // Throws std::logic_error unless the source gave leaf `index` `found`
  // entries, as many as the shape was built with.
  void CheckLeafEntries(uint64_t index, uint64_t found) const;

  NodeFormat format_;
  std::shared_ptr<const BulkloadSource> source_;
  std::vector<Level> levels_;
  std::vector<uint64_t> first_block_;  // per level
  uint64_t per_leaf_;
  uint64_t per_internal_;
  uint64_t blocks_ = 0;
};

}  // namespace dmbench::indexes
