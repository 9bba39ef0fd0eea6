#include "indexes/blink/bulkload_image.h"

#include <algorithm>
#include <stdexcept>

namespace dmbench::indexes {

BulkloadImage::BulkloadImage(const NodeFormat& format, std::shared_ptr<const BulkloadSource> source,
                             std::vector<Level> levels, uint64_t per_leaf, uint64_t per_internal)
    : format_(format),
      source_(std::move(source)),
      levels_(std::move(levels)),
      per_leaf_(per_leaf),
      per_internal_(per_internal) {
  if (levels_.empty() || levels_.back().nodes() != 1) {
    throw std::invalid_argument("a bulkload image needs levels up to a single root");
  }
  for (const Level& level : levels_) {
    first_block_.push_back(blocks_);
    blocks_ += level.nodes();
  }
}

std::pair<size_t, uint64_t> BulkloadImage::Locate(uint64_t block) const {
  if (block >= blocks_) {
    throw std::out_of_range("bulkload image: no block " + std::to_string(block) + " of " +
                            std::to_string(blocks_));
  }
  const size_t level = static_cast<size_t>(
      std::upper_bound(first_block_.begin(), first_block_.end(), block) - first_block_.begin() - 1);
  return {level, block - first_block_[level]};
}

rdma::GlobalAddress BulkloadImage::address(uint64_t block) const {
  const auto [level, index] = Locate(block);
  return NodeAddress(level, index);
}

rdma::GlobalAddress BulkloadImage::root() const { return levels_.back().address(0); }

void BulkloadImage::Prefetch(uint64_t block) const {
  // The leaves are the first blocks; internal nodes are few, and cached.
  const Level& leaves = levels_.front();
  if (block >= leaves.nodes()) return;
  __builtin_prefetch(&leaves.in_key_order[block]);
  if (block + 1 < leaves.nodes()) __builtin_prefetch(&leaves.in_key_order[block + 1]);
}

NodeImage BulkloadImage::LeafFrame(uint64_t index) const {
  const Level& leaves = levels_.front();
  const bool last = index + 1 == leaves.nodes();
  NodeImage leaf;
  leaf.low_fence = leaves.low_fence(index);
  leaf.high_fence = last ? kInfinity : leaves.low_fence(index + 1);
  leaf.sibling = last ? rdma::GlobalAddress::Null() : leaves.address(index + 1);
  return leaf;
}

uint64_t BulkloadImage::LeafEntries(uint64_t index) const {
  return index + 1 == levels_.front().nodes() ? source_->size() - index * per_leaf_ : per_leaf_;
}

void BulkloadImage::CheckLeafEntries(uint64_t index, uint64_t found) const {
  const uint64_t expected = LeafEntries(index);
  if (found != expected) {
    throw std::logic_error("bulkload image: leaf " + std::to_string(index) + " holds " +
                           std::to_string(found) + " entries, expected " +
                           std::to_string(expected) + " (did the source change?)");
  }
}

NodeImage BulkloadImage::Internal(size_t level, uint64_t index) const {
  const Level& nodes = levels_[level];
  const Level& children = levels_[level - 1];
  const bool last = index + 1 == nodes.nodes();
  NodeImage node;
  node.level = static_cast<uint8_t>(level);
  node.low_fence = nodes.low_fence(index);
  node.high_fence = last ? kInfinity : nodes.low_fence(index + 1);
  node.sibling = last ? rdma::GlobalAddress::Null() : nodes.address(index + 1);
  const uint64_t begin = index * per_internal_;
  const uint64_t end = std::min<uint64_t>(children.nodes(), begin + per_internal_);
  node.leftmost = children.address(begin);
  node.entries.reserve(end - begin - 1);
  for (uint64_t c = begin + 1; c < end; ++c) {
    node.entries.push_back({children.low_fence(c), children.address(c)});
  }
  return node;
}

void BulkloadImage::Fill(uint64_t block, std::span<uint8_t> out) const {
  if (out.size() != format_.node_bytes()) {
    throw std::invalid_argument("bulkload image: a node is " +
                                std::to_string(format_.node_bytes()) + " bytes, not " +
                                std::to_string(out.size()));
  }
  const auto [level, index] = Locate(block);
  if (level > 0) {
    format_.Encode(Internal(level, index), out.data());
    return;
  }
  const NodeImage frame = LeafFrame(index);
  if (format_.packed_fresh_leaves()) {
    // Straight from the source into the slots (BulkloadSource::WriteRange):
    // every leaf a run first touches is built here.
    const auto room =
        static_cast<uint32_t>(std::min<uint64_t>(LeafEntries(index), format_.leaf_capacity()));
    const NodeFormat::PackedSlots slots = format_.BeginFreshLeaf(frame, room, out.data());
    CheckLeafEntries(index, source_->WriteRange(frame.low_fence, frame.high_fence, slots.first,
                                                slots.stride, room));
    format_.SealFreshLeaf(frame, out.data());
    return;
  }
  std::vector<KeyValue> entries;
  entries.reserve(per_leaf_);  // grown one entry at a time, it reallocated 7 times a leaf
  source_->Range(frame.low_fence, frame.high_fence, &entries);
  CheckLeafEntries(index, entries.size());
  format_.EncodeFreshLeaf(frame, entries, out.data());
}

}  // namespace dmbench::indexes
