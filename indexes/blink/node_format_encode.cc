// NodeFormat's writers: whole nodes, freshly bulkloaded leaves, single
// leaf slots, and the seal (CRC or versions) that makes a node consistent.
#include <algorithm>
#include <cstring>
#include <vector>

#include "indexes/blink/node_format.h"
#include "indexes/blink/node_format_layout.h"

namespace dmbench::indexes {

using node_layout::ForEachPaddedPiece, node_layout::kCountOffset, node_layout::kFreeOffset,
    node_layout::kKeySalt, node_layout::kLeftmostOffset, node_layout::kLevelOffset,
    node_layout::kLineBytes, node_layout::kLinePayload, node_layout::kLowFenceOffset,
    node_layout::kSiblingOffset, node_layout::kTrailerBytes, node_layout::kValueSalt;

namespace {

// The same, written to `at`, contiguous.
[[gnu::always_inline]] inline void StorePadded(uint8_t* at, uint64_t word, uint32_t width,
                                               uint64_t salt) {
  ForEachPaddedPiece(word, width, salt, [at](uint32_t offset, const void* bytes, uint32_t length) {
    std::memcpy(at + offset, bytes, length);
  });
}

}  // namespace

// Forced inline, as Physical is (node_format_layout.h).
[[gnu::always_inline]] inline void NodeFormat::WriteLogical(uint8_t* node, uint32_t logical,
                                                            const void* in, uint32_t length) const {
  const auto* bytes = static_cast<const uint8_t*>(in);
  if (consistency_ != Consistency::kCacheline ||
      logical % kLinePayload + length <= kLinePayload) {  // within one line's payload
    std::memcpy(node + Physical(logical), bytes, length);
    return;
  }
  while (length > 0) {
    const uint32_t run = std::min(length, kLinePayload - logical % kLinePayload);
    std::memcpy(node + Physical(logical), bytes, run);
    bytes += run;
    logical += run;
    length -= run;
  }
}

// The bytes beyond the first 8 of a wide key or value: a pattern that only
// the same word produces, so a mix of two writes is visible.
[[gnu::always_inline]] inline void NodeFormat::WritePadded(uint8_t* node, uint32_t logical,
                                                           uint64_t word, uint32_t width,
                                                           uint64_t salt) const {
  if (consistency_ != Consistency::kCacheline) {
    StorePadded(node + Physical(logical), word, width, salt);
    return;
  }
  ForEachPaddedPiece(word, width, salt, [&](uint32_t offset, const void* bytes, uint32_t length) {
    WriteLogical(node, logical + offset, bytes, length);
  });
}

void NodeFormat::Encode(const NodeImage& image, uint8_t* node) const {
  EncodeHeader(image, image.level > 0 ? image.entries.size() : image.slots.size(), node);
  if (image.level > 0 && consistency_ != Consistency::kCacheline) {
    // Contiguous entries, with the layout in locals (see EncodeFreshLeaf):
    // every internal node a run first touches is built here.
    uint8_t* const entries = node + Physical(0);
    const uint32_t* const offsets = internal_offsets_.data();
    const uint32_t key_bytes = key_bytes_;
    for (size_t i = 0; i < image.entries.size(); ++i) {
      uint8_t* const entry = entries + offsets[i];
      StorePadded(entry, image.entries[i].key, key_bytes, kKeySalt);
      const uint64_t child = image.entries[i].child.Pack();
      std::memcpy(entry + key_bytes, &child, 8);
    }
  } else if (image.level > 0) {
    for (size_t i = 0; i < image.entries.size(); ++i) {
      WritePadded(node, internal_offsets_[i], image.entries[i].key, key_bytes_, kKeySalt);
      const uint64_t child = image.entries[i].child.Pack();
      WriteLogical(node, internal_offsets_[i] + key_bytes_, &child, 8);
    }
  } else {
    for (uint32_t i = 0; i < image.slots.size(); ++i) EncodeLeafSlot(image.slots[i], i, node);
  }
  Seal(image.version, node);
}

void NodeFormat::EncodeFreshLeaf(const NodeImage& frame, std::span<const KeyValue> entries,
                                 uint8_t* node) const {
  if (packed_fresh_leaves()) {
    // The paper's 8-byte keys and values have no padding, and the general
    // loop below, deciding so for every entry, took 1.8 times this one's
    // instructions (129 M against 70 M in a 10 M-key read-intensive run).
    const PackedSlots slots = BeginFreshLeaf(frame, static_cast<uint32_t>(entries.size()), node);
    uint8_t* slot = slots.first;
    for (const KeyValue& entry : entries) {
      std::memcpy(slot, &entry.first, 8);
      std::memcpy(slot + 8, &entry.second, 8);
      slot += slots.stride;
    }
    SealFreshLeaf(frame, node);
    return;
  }
  EncodeHeader(frame, unsorted_leaves() ? leaf_capacity() : entries.size(), node);
  // An unsorted leaf's empty slots are all zero bytes (versions 0, the null
  // key), which EncodeHeader's clearing wrote; so are a fresh slot's
  // versions.
  if (consistency_ == Consistency::kCacheline) {
    for (uint32_t i = 0; i < entries.size(); ++i) {
      EncodeLeafSlot(LeafSlot{entries[i].first, entries[i].second}, i, node);
    }
  } else {
    // Outside the cacheline format a slot's bytes are contiguous, at a fixed
    // distance from its logical offset. The loop keeps the layout in locals:
    // a byte store may alias *this, so members read in the loop were
    // reloaded after every store (6% of a 10 M-key run's time: every leaf
    // a run first touches is built here).
    uint8_t* const slots = node + Physical(0) + LeafKeyShift();
    const uint32_t* const offsets = leaf_offsets_.data();
    const uint32_t key_bytes = key_bytes_;
    const uint32_t value_bytes = value_bytes_;
    for (uint32_t i = 0; i < entries.size(); ++i) {
      if (entries[i].first == kNullKey) continue;
      uint8_t* const slot = slots + offsets[i];
      StorePadded(slot, entries[i].first, key_bytes, kKeySalt);
      StorePadded(slot + key_bytes, entries[i].second, value_bytes, kValueSalt);
    }
  }
  Seal(frame.version, node);
}

NodeFormat::PackedSlots NodeFormat::BeginFreshLeaf(const NodeImage& frame, uint32_t count,
                                                   uint8_t* node) const {
  EncodeHeader(frame, unsorted_leaves() ? leaf_capacity() : count, node);
  // An unsorted leaf's empty slots are all zero bytes (versions 0, the null
  // key), which EncodeHeader's clearing wrote; so are a fresh slot's
  // versions.
  return {node + first_leaf_key_, leaf_entry_bytes_};
}

void NodeFormat::EncodeHeader(const NodeImage& image, size_t count, uint8_t* node) const {
  std::memset(node, 0, node_bytes_);
  WriteLogical(node, kLevelOffset, &image.level, 1);
  const uint8_t free = image.free ? 1 : 0;
  WriteLogical(node, kFreeOffset, &free, 1);
  const auto count16 = static_cast<uint16_t>(count);
  WriteLogical(node, kCountOffset, &count16, 2);
  uint64_t word = image.sibling.Pack();
  WriteLogical(node, kSiblingOffset, &word, 8);
  word = image.leftmost.Pack();
  WriteLogical(node, kLeftmostOffset, &word, 8);
  WritePadded(node, kLowFenceOffset, image.low_fence, key_bytes_, kKeySalt);
  WritePadded(node, kLowFenceOffset + key_bytes_, image.high_fence, key_bytes_, kKeySalt);
}

[[gnu::always_inline]] inline void NodeFormat::EncodeLeafSlot(const LeafSlot& slot, uint32_t index,
                                                              uint8_t* node) const {
  const uint32_t offset = leaf_offsets_[index];
  if (consistency_ == Consistency::kTwoLevel) {
    WriteLogical(node, offset, &slot.front_version, 1);
    WriteLogical(node, offset + leaf_entry_bytes_ - 1, &slot.rear_version, 1);
    if (slot.key == kNullKey) return;
    WritePadded(node, offset + 1, slot.key, key_bytes_, kKeySalt);
    WritePadded(node, offset + 1 + key_bytes_, slot.value, value_bytes_, kValueSalt);
  } else if (slot.key != kNullKey) {
    WritePadded(node, offset, slot.key, key_bytes_, kKeySalt);
    WritePadded(node, offset + key_bytes_, slot.value, value_bytes_, kValueSalt);
  }
}

void NodeFormat::Seal(uint8_t version, uint8_t* node) const {
  switch (consistency_) {
    case Consistency::kCrc: {
      const uint32_t crc = Crc(node);
      std::memcpy(node + node_bytes_ - kTrailerBytes, &crc, 4);
      break;
    }
    case Consistency::kNodeVersions:
    case Consistency::kTwoLevel:
      node[lock_bytes_] = node[node_bytes_ - 1] = version & 0xF;
      break;
    case Consistency::kCacheline:
      for (uint32_t line = 0; line < node_bytes_; line += kLineBytes) node[line] = version;
      break;
  }
}

std::pair<uint32_t, uint32_t> NodeFormat::EncodeSlot(LeafSlot& slot, uint32_t slot_index,
                                                     uint8_t* node) const {
  const uint32_t offset = leaf_offsets_[slot_index];
  uint32_t key_at = 0;
  if (consistency_ == Consistency::kTwoLevel) {
    slot.front_version = slot.rear_version = (slot.rear_version + 1) & 0xF;
    WriteLogical(node, offset, &slot.front_version, 1);
    WriteLogical(node, offset + leaf_entry_bytes_ - 1, &slot.rear_version, 1);
    key_at = 1;
  }
  if (slot.key == kNullKey) {
    const std::vector<uint8_t> zeros(key_bytes_ + value_bytes_, 0);
    WriteLogical(node, offset + key_at, zeros.data(), key_bytes_ + value_bytes_);
  } else {
    WritePadded(node, offset + key_at, slot.key, key_bytes_, kKeySalt);
    WritePadded(node, offset + key_at + key_bytes_, slot.value, value_bytes_, kValueSalt);
  }
  // Entry writes are only used where the entry is contiguous in memory.
  return {Physical(offset), leaf_entry_bytes_};
}

}  // namespace dmbench::indexes
