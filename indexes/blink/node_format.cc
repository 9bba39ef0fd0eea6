// NodeFormat's layout of a node (which slots lie where) and its readers:
// the checks a reader makes, decoding, and the searches of a node's bytes.
// The writers are in node_format_encode.cc.
#include "indexes/blink/node_format.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "indexes/blink/node_format_layout.h"
#include "indexes/common/crc32c.h"

namespace dmbench::indexes {

using node_layout::ForEachPaddedPiece, node_layout::kCountOffset, node_layout::kFreeOffset,
    node_layout::kKeySalt, node_layout::kLeftmostOffset, node_layout::kLevelOffset,
    node_layout::kLineBytes, node_layout::kLinePayload, node_layout::kLowFenceOffset,
    node_layout::kSiblingOffset, node_layout::kTrailerBytes, node_layout::kValueSalt;

// Forced inline, as Physical is (node_format_layout.h).
[[gnu::always_inline]] inline void NodeFormat::ReadLogical(const uint8_t* node, uint32_t logical,
                                                           void* out, uint32_t length) const {
  auto* bytes = static_cast<uint8_t*>(out);
  if (consistency_ != Consistency::kCacheline ||
      logical % kLinePayload + length <= kLinePayload) {  // within one line's payload
    std::memcpy(bytes, node + Physical(logical), length);
    return;
  }
  while (length > 0) {
    const uint32_t run = std::min(length, kLinePayload - logical % kLinePayload);
    std::memcpy(bytes, node + Physical(logical), run);
    bytes += run;
    logical += run;
    length -= run;
  }
}

rdma::GlobalAddress NodeImage::ChildFor(uint64_t key) const {
  auto after = std::upper_bound(entries.begin(), entries.end(), key,
                                [](uint64_t k, const InternalEntry& e) { return k < e.key; });
  return after == entries.begin() ? leftmost : std::prev(after)->child;
}

NodeFormat::NodeFormat(const TreeOptions& options)
    : consistency_(options.consistency),
      node_bytes_(options.node_bytes),
      key_bytes_(options.key_bytes),
      value_bytes_(options.value_bytes),
      lock_bytes_(options.lock_placement == LockPlacement::kNode ? 8 : 0) {
  if (lock_bytes_ > 0 && consistency_ == Consistency::kCacheline) {
    throw std::invalid_argument("in-node locks need a non-cacheline format (validate options)");
  }
  header_bytes_ = kLowFenceOffset + 2 * key_bytes_;
  leaf_entry_bytes_ = key_bytes_ + value_bytes_ + (consistency_ == Consistency::kTwoLevel ? 2 : 0);
  entry_writes_ = consistency_ == Consistency::kTwoLevel ||
                  (consistency_ == Consistency::kCacheline && leaf_entry_bytes_ <= kLinePayload);
  const uint32_t logical_end = consistency_ == Consistency::kCacheline
                                   ? node_bytes_ / kLineBytes * kLinePayload
                                   : node_bytes_ - kTrailerBytes - 1 - lock_bytes_;
  leaf_offsets_ = PlaceEntries(header_bytes_, logical_end, leaf_entry_bytes_);
  first_leaf_key_ = Physical(leaf_offsets_.empty() ? 0 : leaf_offsets_[0]) + LeafKeyShift();
  internal_offsets_ = PlaceEntries(header_bytes_, logical_end, key_bytes_ + 8);
}

std::vector<uint32_t> NodeFormat::PlaceEntries(uint32_t first, uint32_t end,
                                               uint32_t entry_bytes) const {
  std::vector<uint32_t> offsets;
  // Only entries that fit a line are kept inside one; wider ones straddle and
  // are always written with the whole node.
  const bool align = consistency_ == Consistency::kCacheline && entry_bytes <= kLinePayload;
  uint32_t position = first;
  for (;;) {
    if (align && position % kLinePayload + entry_bytes > kLinePayload) {
      position = (position / kLinePayload + 1) * kLinePayload;
    }
    if (position + entry_bytes > end) break;
    offsets.push_back(position);
    position += entry_bytes;
  }
  return offsets;
}

bool NodeFormat::PaddingIntact(const uint8_t* node, uint32_t logical, uint64_t word, uint32_t width,
                               uint64_t salt) const {
  bool intact = true;
  ForEachPaddedPiece(word, width, salt, [&](uint32_t offset, const void* bytes, uint32_t length) {
    if (offset == 0) return;  // the word itself, which the caller read
    uint64_t stored = 0;
    ReadLogical(node, logical + offset, &stored, length);
    intact = intact && std::memcmp(&stored, bytes, length) == 0;
  });
  return intact;
}

uint8_t NodeFormat::NextVersion(uint8_t version) const {
  return short_versions() ? (version + 1) & 0xF : static_cast<uint8_t>(version + 1);
}

// The lock word changes under a reader without the node changing, so the
// CRC leaves it out.
uint32_t NodeFormat::Crc(const uint8_t* node) const {
  return Crc32c(node + lock_bytes_, node_bytes_ - kTrailerBytes - lock_bytes_);
}

uint32_t NodeFormat::checksummed_bytes() const {
  return consistency_ == Consistency::kCrc ? node_bytes_ - kTrailerBytes : 0;
}

bool NodeFormat::NodeConsistent(const uint8_t* node) const {
  switch (consistency_) {
    case Consistency::kCrc: {
      uint32_t stored;
      std::memcpy(&stored, node + node_bytes_ - kTrailerBytes, 4);
      return Crc(node) == stored;
    }
    case Consistency::kNodeVersions:
    case Consistency::kTwoLevel:
      return node[lock_bytes_] == node[node_bytes_ - 1];
    case Consistency::kCacheline:
      for (uint32_t line = kLineBytes; line < node_bytes_; line += kLineBytes) {
        if (node[line] != node[0]) return false;
      }
      return true;
  }
  return false;
}

void NodeFormat::DecodeHeader(const uint8_t* node, NodeImage* image) const {
  image->version = node[lock_bytes_];
  ReadLogical(node, kLevelOffset, &image->level, 1);
  uint8_t free = 0;
  ReadLogical(node, kFreeOffset, &free, 1);
  image->free = free != 0;
  uint64_t word = 0;
  ReadLogical(node, kSiblingOffset, &word, 8);
  image->sibling = rdma::GlobalAddress::Unpack(word);
  ReadLogical(node, kLeftmostOffset, &word, 8);
  image->leftmost = rdma::GlobalAddress::Unpack(word);
  ReadLogical(node, kLowFenceOffset, &image->low_fence, 8);
  ReadLogical(node, kLowFenceOffset + key_bytes_, &image->high_fence, 8);
}

uint16_t NodeFormat::Count(const uint8_t* node) const {
  uint16_t count = 0;
  ReadLogical(node, kCountOffset, &count, 2);
  return count;
}

void NodeFormat::DecodeSlot(const uint8_t* node, uint32_t index, LeafSlot* slot) const {
  ReadSlot(node, index, slot);
}

// Forced inline for Decode's loop over every slot of a leaf, which a write
// makes: a call per slot was a tenth of a write-intensive simulation's time
// spent decoding.
[[gnu::always_inline]] inline void NodeFormat::ReadSlot(const uint8_t* node, uint32_t index,
                                                        LeafSlot* slot) const {
  const uint32_t offset = leaf_offsets_[index];
  const bool versioned = consistency_ == Consistency::kTwoLevel;
  const uint32_t key_at = versioned ? 1 : 0;
  ReadLogical(node, offset + key_at, &slot->key, 8);
  ReadLogical(node, offset + key_at + key_bytes_, &slot->value, 8);
  if (versioned) {
    ReadLogical(node, offset, &slot->front_version, 1);
    ReadLogical(node, offset + leaf_entry_bytes_ - 1, &slot->rear_version, 1);
  }
}

uint32_t NodeFormat::SlotLineOffset(uint32_t index) const {
  if (consistency_ != Consistency::kCacheline || !entry_writes_) {
    throw std::logic_error("only cacheline nodes whose entries fit a line have slot lines");
  }
  return Physical(leaf_offsets_[index]) / kLineBytes * kLineBytes;
}

// An internal node's entries, as Decode and InternalChildFor both read them.
[[gnu::always_inline]] inline uint32_t NodeFormat::InternalCount(const uint8_t* node) const {
  return std::min<uint32_t>(Count(node), static_cast<uint32_t>(internal_offsets_.size()));
}

[[gnu::always_inline]] inline uint64_t NodeFormat::SeparatorAt(const uint8_t* node,
                                                               uint32_t index) const {
  uint64_t separator = 0;
  ReadLogical(node, internal_offsets_[index], &separator, 8);
  return separator;
}

[[gnu::always_inline]] inline rdma::GlobalAddress NodeFormat::InternalChildAt(
    const uint8_t* node, uint32_t index) const {
  uint64_t word = 0;
  ReadLogical(node, internal_offsets_[index] + key_bytes_, &word, 8);
  return rdma::GlobalAddress::Unpack(word);
}

void NodeFormat::Decode(const uint8_t* node, NodeImage* image) const {
  DecodeHeader(node, image);
  image->slots.clear();
  image->entries.clear();
  if (image->level > 0) {
    const uint32_t count = InternalCount(node);
    image->entries.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
      image->entries[i] = {SeparatorAt(node, i), InternalChildAt(node, i)};
    }
    return;
  }
  const uint16_t count = Count(node);
  const uint32_t slots =
      unsorted_leaves() ? leaf_capacity() : std::min<uint32_t>(count, leaf_capacity());
  image->slots.resize(slots);
  for (uint32_t i = 0; i < slots; ++i) ReadSlot(node, i, &image->slots[i]);
}

rdma::GlobalAddress NodeFormat::InternalChildFor(const uint8_t* node, uint64_t key) const {
  // As Decode reads the entries, and NodeImage::ChildFor picks among them:
  // the child after the last separator at or below `key`, else the leftmost.
  uint32_t low = 0, high = InternalCount(node);
  while (low < high) {
    const uint32_t middle = (low + high) / 2;
    if (key < SeparatorAt(node, middle)) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  if (low > 0) return InternalChildAt(node, low - 1);
  uint64_t leftmost = 0;
  ReadLogical(node, kLeftmostOffset, &leftmost, 8);
  return rdma::GlobalAddress::Unpack(leftmost);
}

[[gnu::always_inline]] inline uint64_t NodeFormat::LeafKeyAt(const uint8_t* node,
                                                             uint32_t index) const {
  uint64_t key = 0;
  ReadLogical(node, leaf_offsets_[index] + LeafKeyShift(), &key, 8);
  return key;
}

// Outside the cacheline format leaf slots lie back to back, so a scan of
// their keys steps one pointer by the entry's bytes: a lookup's scan of an
// unsorted leaf looked up each slot's offset and re-derived its layout, and
// was 7% of a simulation's instructions.
template <typename Visit>
[[gnu::always_inline]] inline void NodeFormat::ScanLeafKeys(const uint8_t* node,
                                                            Visit&& visit) const {
  const uint32_t capacity = leaf_capacity();
  if (consistency_ == Consistency::kCacheline) {
    for (uint32_t i = 0; i < capacity; ++i) {
      if (!visit(i, LeafKeyAt(node, i))) return;
    }
    return;
  }
  const uint8_t* key_at = node + first_leaf_key_;
  const uint32_t stride = leaf_entry_bytes_;
  for (uint32_t i = 0; i < capacity; ++i, key_at += stride) {
    uint64_t stored;
    std::memcpy(&stored, key_at, 8);
    if (!visit(i, stored)) return;
  }
}

NodeFormat::UnsortedLeafScan NodeFormat::ScanUnsortedLeaf(const uint8_t* node, uint64_t key) const {
  const uint32_t capacity = leaf_capacity();
  UnsortedLeafScan scan{capacity, capacity};
  ScanLeafKeys(node, [&](uint32_t i, uint64_t stored) {
    if (stored == key) scan.holding = i;
    if (stored == kNullKey && scan.first_empty == capacity) scan.first_empty = i;
    return true;
  });
  return scan;
}

uint32_t NodeFormat::FirstSlotHolding(const uint8_t* node, uint64_t key) const {
  const uint32_t capacity = leaf_capacity();
  if (consistency_ == Consistency::kCacheline) {
    uint32_t found = capacity;
    ScanLeafKeys(node, [&](uint32_t i, uint64_t stored) {
      if (stored != key) return true;
      found = i;
      return false;
    });
    return found;
  }
  // Four slots a step, with one branch: a lookup scans half a leaf on
  // average, and a branch per slot was a sixth of the scan's instructions.
  const uint8_t* key_at = node + first_leaf_key_;
  const uint32_t stride = leaf_entry_bytes_;
  uint32_t i = 0;
  for (; i + 4 <= capacity; i += 4, key_at += 4 * stride) {
    uint64_t stored[4];
    for (uint32_t k = 0; k < 4; ++k) std::memcpy(&stored[k], key_at + k * stride, 8);
    if ((stored[0] == key) | (stored[1] == key) | (stored[2] == key) | (stored[3] == key)) {
      for (uint32_t k = 0;; ++k) {
        if (stored[k] == key) return i + k;
      }
    }
  }
  for (; i < capacity; ++i, key_at += stride) {
    uint64_t stored;
    std::memcpy(&stored, key_at, 8);
    if (stored == key) return i;
  }
  return capacity;
}

int NodeFormat::FindLeafSlot(const uint8_t* node, uint64_t key, LeafSlot* slot) const {
  auto key_of = [&](uint32_t index) { return LeafKeyAt(node, index); };
  if (unsorted_leaves()) {
    const uint32_t found = FirstSlotHolding(node, key);
    if (found == leaf_capacity()) return -1;
    DecodeSlot(node, found, slot);
    return static_cast<int>(found);
  }
  const uint32_t count = std::min<uint32_t>(Count(node), leaf_capacity());
  uint32_t low = 0, high = count;
  while (low < high) {
    const uint32_t middle = (low + high) / 2;
    if (key_of(middle) < key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (low == count || key_of(low) != key) return -1;
  DecodeSlot(node, low, slot);
  return static_cast<int>(low);
}

bool NodeFormat::SlotPayloadIntact(const uint8_t* node, uint32_t slot_index) const {
  // Keys and values of 8 bytes have no pattern to check, and looking for one
  // took 80 instructions of every lookup of the paper's entries.
  if (key_bytes_ <= 8 && value_bytes_ <= 8) return true;
  const uint32_t offset =
      leaf_offsets_[slot_index] + (consistency_ == Consistency::kTwoLevel ? 1 : 0);
  uint64_t key = 0, value = 0;
  ReadLogical(node, offset, &key, 8);
  ReadLogical(node, offset + key_bytes_, &value, 8);
  if (key == kNullKey) return true;
  return PaddingIntact(node, offset, key, key_bytes_, kKeySalt) &&
         PaddingIntact(node, offset + key_bytes_, value, value_bytes_, kValueSalt);
}

}  // namespace dmbench::indexes
