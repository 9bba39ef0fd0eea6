// The bytes of a tree node in remote memory, for each consistency scheme,
// and their decoded, local form.
//
// Every node carries: a node-level version (or, for FG+, a CRC32C), level
// (leaves are 0), a free bit, fence keys [low, high), a sibling pointer and,
// for internal nodes, the leftmost child. Logical fields are laid out
// identically in every scheme; only their mapping to physical bytes differs:
//   crc, node, two_level: [lock][version][logical bytes...][8-byte trailer];
//       the trailer holds the CRC (crc) or the rear version in its last byte.
//       [lock] is the 8-byte lock word with lock_placement = node (FG's
//       header lock), else absent; no check covers it, and write-backs of a
//       locked node leave it to the lock's release.
//   cacheline: byte 0 of every 64-byte line holds the version; logical bytes
//       fill the other 63 bytes of each line, and entries (when they fit)
//       never straddle a line, so writing one entry is atomic (SMART §5).
// Keys and values are wider than their 8 meaningful bytes when configured so;
// the extra bytes are a pattern derived from the key or value, which lets a
// reader detect an entry torn in a way the scheme failed to catch.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "harness/rdma/global_address.h"
#include "indexes/blink/tree_options.h"
#include "indexes/common/bulkload_source.h"
#include "indexes/index.h"

namespace dmbench::indexes {

constexpr uint64_t kNullKey = 0;            // an empty slot in an unsorted leaf
constexpr uint64_t kInfinity = UINT64_MAX;  // the high fence of the rightmost nodes

struct LeafSlot {
  uint64_t key = kNullKey;
  uint64_t value = 0;
  uint8_t front_version = 0;  // two_level only
  uint8_t rear_version = 0;
  bool consistent() const { return front_version == rear_version; }
};

struct InternalEntry {
  uint64_t key;  // separator: the child covers [key, next separator)
  rdma::GlobalAddress child;
};

// A decoded node. Sorted leaves and internal nodes keep their entries in key
// order; unsorted leaves keep one slot per physical position, empty ones
// holding kNullKey, so that a slot can be written back in place.
struct NodeImage {
  uint8_t version = 0;
  uint8_t level = 0;
  bool free = false;
  uint64_t low_fence = 0;
  uint64_t high_fence = kInfinity;
  rdma::GlobalAddress sibling;
  rdma::GlobalAddress leftmost;
  std::vector<LeafSlot> slots;
  std::vector<InternalEntry> entries;

  bool Covers(uint64_t key) const { return key >= low_fence && key < high_fence; }
  // Internal nodes: the child whose range holds `key` (which the node covers).
  rdma::GlobalAddress ChildFor(uint64_t key) const;
};

class NodeFormat {
 public:
  NodeFormat(const TreeOptions& options);

  uint32_t node_bytes() const { return node_bytes_; }
  // The bytes at the node's start that hold its lock word (8 with in-node
  // locks, else 0): a write-back under the lock starts after them.
  uint32_t lock_bytes() const { return lock_bytes_; }
  Consistency consistency() const { return consistency_; }
  bool unsorted_leaves() const {
    return consistency_ == Consistency::kTwoLevel || consistency_ == Consistency::kCacheline;
  }
  uint32_t leaf_capacity() const { return static_cast<uint32_t>(leaf_offsets_.size()); }
  uint32_t internal_capacity() const { return static_cast<uint32_t>(internal_offsets_.size()); }
  // Whether a single leaf slot can be written back on its own.
  bool entry_writes() const { return entry_writes_; }
  uint32_t leaf_entry_bytes() const { return leaf_entry_bytes_; }

  // Whether the node-level check passes (CRC, front == rear version, or all
  // line versions equal).
  bool NodeConsistent(const uint8_t* node) const;
  // Bytes a node check or encoding runs a checksum over (CRC format), else 0:
  // what the client's CPU is charged for (rdma::CpuWork::kCrcByte).
  uint32_t checksummed_bytes() const;
  // Decodes a node that passed NodeConsistent.
  void Decode(const uint8_t* node, NodeImage* image) const;
  // Only the header fields (no entries): what a lookup needs besides its slot.
  void DecodeHeader(const uint8_t* node, NodeImage* image) const;
  // What the decoded internal node's ChildFor(key) returns, read from the
  // bytes: a binary search over the separators, without decoding the
  // entries. `node` passed NodeConsistent and is an internal node.
  rdma::GlobalAddress InternalChildFor(const uint8_t* node, uint64_t key) const;
  // The slot of a leaf holding `key` (binary search in sorted leaves, a scan
  // of the keys in unsorted ones), decoded into *slot; -1 if absent.
  int FindLeafSlot(const uint8_t* node, uint64_t key, LeafSlot* slot) const;
  // Writes the whole node, sealed (CRC or versions from image.version).
  void Encode(const NodeImage& image, uint8_t* node) const;
  // Encode() of the leaf `frame` (its fences, sibling and version; its slots
  // are ignored) holding `entries`, ascending, in its first slots and every
  // other slot empty: a freshly bulkloaded leaf, written without building
  // the slots of its NodeImage (what a simulated memory server does for each
  // leaf a run first touches). entries.size() <= leaf_capacity().
  void EncodeFreshLeaf(const NodeImage& frame, std::span<const KeyValue> entries,
                       uint8_t* node) const;
  // EncodeFreshLeaf in two steps, for a caller that writes the entries
  // straight into the node between them (a bulkload source, without an
  // array of entries in between): BeginFreshLeaf clears every byte, writes
  // the header of a leaf of `count` entries and says where slot 0's pair
  // goes; the caller writes entry i as two 8-byte words, key then value, at
  // first + i * stride, for i < count; SealFreshLeaf seals the node. Only
  // where packed_fresh_leaves(): 8-byte keys and values outside the
  // cacheline format, whose slots lie back to back with nothing to pad.
  struct PackedSlots {
    uint8_t* first;
    uint32_t stride;
  };
  bool packed_fresh_leaves() const {
    return key_bytes_ == 8 && value_bytes_ == 8 && consistency_ != Consistency::kCacheline;
  }
  PackedSlots BeginFreshLeaf(const NodeImage& frame, uint32_t count, uint8_t* node) const;
  void SealFreshLeaf(const NodeImage& frame, uint8_t* node) const { Seal(frame.version, node); }
  // Writes `slot` into leaf slot `index` of `node` in place, bumping the
  // slot's entry versions (two_level); returns the byte range to write back.
  std::pair<uint32_t, uint32_t> EncodeSlot(LeafSlot& slot, uint32_t index, uint8_t* node) const;
  // An unsorted leaf's slots as a write needs them, read from the bytes
  // without decoding the others: the slot holding `key` (the last one, were
  // there two) and the first empty slot, each leaf_capacity() if none.
  struct UnsortedLeafScan {
    uint32_t holding;
    uint32_t first_empty;
  };
  UnsortedLeafScan ScanUnsortedLeaf(const uint8_t* node, uint64_t key) const;
  // Decodes leaf slot `index` of `node`, reading the slot's bytes only.
  void DecodeSlot(const uint8_t* node, uint32_t index, LeafSlot* slot) const;
  // Cacheline format with entry writes: the physical offset in a leaf of the
  // line that holds slot `index` whole (what speculative lookup READs).
  uint32_t SlotLineOffset(uint32_t index) const;
  static constexpr uint32_t kLineBytes = 64;
  // Whether the wide key and value bytes of a leaf slot match their patterns.
  bool SlotPayloadIntact(const uint8_t* node, uint32_t slot) const;
  // Whether versions wrap fast enough that a slow READ must be retried (4-bit).
  bool short_versions() const { return HasShortVersions(consistency_); }
  uint8_t NextVersion(uint8_t version) const;

 private:
  uint32_t Physical(uint32_t logical) const;
  uint32_t Crc(const uint8_t* node) const;
  // Encode's parts: every byte cleared, then the header with `count`; one
  // leaf slot; the CRC or the versions.
  void EncodeHeader(const NodeImage& image, size_t count, uint8_t* node) const;
  void EncodeLeafSlot(const LeafSlot& slot, uint32_t index, uint8_t* node) const;
  void ReadSlot(const uint8_t* node, uint32_t index, LeafSlot* slot) const;
  uint64_t LeafKeyAt(const uint8_t* node, uint32_t index) const;
  // An unsorted leaf's first slot whose key is `key`; leaf_capacity() if none.
  uint32_t FirstSlotHolding(const uint8_t* node, uint64_t key) const;
  // Where a key starts in its leaf slot: after the slot's front version in
  // the two-level scheme.
  uint32_t LeafKeyShift() const { return consistency_ == Consistency::kTwoLevel ? 1 : 0; }
  // Calls visit(slot, key) for every leaf slot in order, until it returns
  // false.
  template <typename Visit>
  void ScanLeafKeys(const uint8_t* node, Visit&& visit) const;
  uint32_t InternalCount(const uint8_t* node) const;
  uint64_t SeparatorAt(const uint8_t* node, uint32_t index) const;
  rdma::GlobalAddress InternalChildAt(const uint8_t* node, uint32_t index) const;
  void Seal(uint8_t version, uint8_t* node) const;
  void ReadLogical(const uint8_t* node, uint32_t logical, void* out, uint32_t length) const;
  void WriteLogical(uint8_t* node, uint32_t logical, const void* in, uint32_t length) const;
  void WritePadded(uint8_t* node, uint32_t logical, uint64_t word, uint32_t width,
                   uint64_t salt) const;
  bool PaddingIntact(const uint8_t* node, uint32_t logical, uint64_t word, uint32_t width,
                     uint64_t salt) const;
  std::vector<uint32_t> PlaceEntries(uint32_t first, uint32_t end, uint32_t entry_bytes) const;
  uint16_t Count(const uint8_t* node) const;

  Consistency consistency_;
  uint32_t node_bytes_;
  uint32_t key_bytes_;
  uint32_t value_bytes_;
  uint32_t lock_bytes_;
  uint32_t leaf_entry_bytes_;
  bool entry_writes_;
  uint32_t header_bytes_;               // logical
  std::vector<uint32_t> leaf_offsets_;  // logical offset of each leaf slot
  // Outside the cacheline format, where slot 0's key lies in a leaf: the
  // slots follow it leaf_entry_bytes_ apart (where it would lie, if a leaf
  // has no slots).
  uint32_t first_leaf_key_ = 0;
  std::vector<uint32_t> internal_offsets_;
};

}  // namespace dmbench::indexes
