// Writes: upsert and delete at the leaves, splits, and split propagation.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "harness/rdma/chunk_allocator.h"
#include "indexes/blink/blink_tree.h"
#include "indexes/blink/blink_tree_internals.h"
#include "indexes/common/index_layout.h"

namespace dmbench::indexes {

namespace {

// The WRITE of a whole node from `skip` on: a node written back under its
// lock skips its in-node lock word (NodeFormat::lock_bytes()), which only the
// release may write; a new node is written whole, its lock word zeroed.
rdma::WorkRequest WholeNodeWrite(rdma::GlobalAddress address, std::vector<uint8_t>& bytes,
                                 uint32_t skip = 0) {
  return {.verb = rdma::Verb::kWrite,
          .remote = address + skip,
          .local = bytes.data() + skip,
          .length = static_cast<uint32_t>(bytes.size() - skip)};
}

bool KeyLess(const LeafSlot& a, const LeafSlot& b) { return a.key < b.key; }

}  // namespace

void BLinkTree::Upsert(rdma::Client& client, uint64_t key, uint64_t value, IndexOpStats& stats) {
  WriteLeaf(client, key, value, Mutation::kUpsert, stats);
}

bool BLinkTree::Delete(rdma::Client& client, uint64_t key, IndexOpStats& stats) {
  return WriteLeaf(client, key, 0, Mutation::kDelete, stats);
}

LockGrant BLinkTree::LockCovering(rdma::Client& client, rdma::GlobalAddress& address, uint64_t key,
                                  uint8_t level, IndexOpStats& stats, rdma::GlobalAddress& via,
                                  bool* wrong_node) {
  Scratch& scratch = ScratchOf(client);
  for (uint32_t hop = 0; hop < kMaxAttempts; ++hop) {
    LockGrant grant = locker_->Acquire(client, address, stats);
    ReadConsistent(client, address, scratch.node, stats);
    format_.DecodeHeader(scratch.node.data(), &scratch.image);
    const NodeImage& node = scratch.image;
    *wrong_node = node.free || node.level != level || key < node.low_fence;
    if (*wrong_node || key < node.high_fence) return grant;
    // Split since we were routed here: move right, one lock at a time.
    locker_->WriteBackAndRelease(client, grant, {}, stats);
    ++stats.sibling_chases;
    if (!via.IsNull()) {
      StateOf(client).cache.Invalidate(via);
      via = rdma::GlobalAddress::Null();
    }
    address = node.sibling;
  }
  throw std::runtime_error("no node at level " + std::to_string(level) + " covers key " +
                           std::to_string(key));
}

bool BLinkTree::WriteLeaf(rdma::Client& client, uint64_t key, uint64_t value, Mutation mutation,
                          IndexOpStats& stats) {
  if (key < kMinUserKey || key > kMaxUserKey) {
    throw std::invalid_argument("key " + std::to_string(key) + " outside [1, 2^64 - 2]");
  }
  Scratch& scratch = ScratchOf(client);
  for (uint32_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
    rdma::GlobalAddress via;
    rdma::GlobalAddress address = Descend(client, key, 0, stats, &via);
    bool wrong_node = false;
    const LockGrant grant = LockCovering(client, address, key, 0, stats, via, &wrong_node);
    if (wrong_node) {
      locker_->WriteBackAndRelease(client, grant, {}, stats);
      ++stats.wrong_turns;
      if (!via.IsNull()) StateOf(client).cache.Invalidate(via);
      ForgetTopLevels(client);
      continue;
    }
    if (format_.unsorted_leaves() && format_.entry_writes()) {
      const std::optional<bool> written =
          WriteEntryAndRelease(client, address, grant, key, value, mutation, stats);
      if (written) return *written;
    }
    NodeImage& leaf = scratch.image;
    format_.Decode(scratch.node.data(), &leaf);
    std::vector<LeafSlot>& slots = leaf.slots;

    // Where the key is, or where it would go.
    size_t slot = slots.size();
    size_t empty = slots.size();
    if (format_.unsorted_leaves()) {
      // Decode sized slots to leaf_capacity(), the scan's "none".
      const auto [holding, first_empty] = format_.ScanUnsortedLeaf(scratch.node.data(), key);
      slot = holding;
      empty = first_empty;
    } else {
      auto at = std::lower_bound(slots.begin(), slots.end(), LeafSlot{key}, KeyLess);
      if (at != slots.end() && at->key == key) slot = at - slots.begin();
      empty = at - slots.begin();  // the insertion point
    }
    const bool found = slot != slots.size();

    if (mutation == Mutation::kDelete && !found) {
      locker_->WriteBackAndRelease(client, grant, {}, stats);
      return false;
    }
    const bool full =
        format_.unsorted_leaves() ? empty == slots.size() : slots.size() == format_.leaf_capacity();
    if (mutation == Mutation::kUpsert && !found && full) {
      scratch.sorted.clear();
      for (const LeafSlot& live : slots) {
        if (live.key != kNullKey) scratch.sorted.push_back(live);
      }
      scratch.sorted.push_back(LeafSlot{key, value});
      std::sort(scratch.sorted.begin(), scratch.sorted.end(), KeyLess);
      SplitAndRelease(client, address, grant, stats);
      return true;
    }

    // One WRITE of the whole leaf (entry writes were taken above).
    if (format_.unsorted_leaves()) {
      const size_t target = found ? slot : empty;
      slots[target] =
          mutation == Mutation::kDelete
              ? LeafSlot{kNullKey, 0, slots[target].front_version, slots[target].rear_version}
              : LeafSlot{key, value, slots[target].front_version, slots[target].rear_version};
    } else if (mutation == Mutation::kDelete) {
      slots.erase(slots.begin() + slot);
    } else if (found) {
      slots[slot].value = value;
    } else {
      slots.insert(slots.begin() + empty, LeafSlot{key, value});
    }
    leaf.version = format_.NextVersion(leaf.version);
    EncodeNode(client, leaf, scratch.node.data());
    rdma::WorkRequest write = WholeNodeWrite(address, scratch.node, format_.lock_bytes());
    stats.write_back_bytes += write.length;
    locker_->WriteBackAndRelease(client, grant, std::span(&write, 1), stats);
    return mutation == Mutation::kUpsert || found;
  }
  throw std::runtime_error("write of key " + std::to_string(key) + " did not converge");
}

std::optional<bool> BLinkTree::WriteEntryAndRelease(rdma::Client& client,
                                                    rdma::GlobalAddress address,
                                                    const LockGrant& grant, uint64_t key,
                                                    uint64_t value, Mutation mutation,
                                                    IndexOpStats& stats) {
  // A write reads only the keys, and the one slot it changes: a leaf's other
  // slots were most of a write-intensive simulation's decoding.
  uint8_t* bytes = ScratchOf(client).node.data();
  const auto [holding, first_empty] = format_.ScanUnsortedLeaf(bytes, key);
  const bool found = holding != format_.leaf_capacity();
  if (mutation == Mutation::kDelete && !found) {
    locker_->WriteBackAndRelease(client, grant, {}, stats);
    return false;
  }
  if (!found && first_empty == format_.leaf_capacity()) return std::nullopt;  // full: split
  const uint32_t target = found ? holding : first_empty;
  LeafSlot slot;
  format_.DecodeSlot(bytes, target, &slot);
  slot.key = mutation == Mutation::kDelete ? kNullKey : key;
  slot.value = mutation == Mutation::kDelete ? 0 : value;
  const auto [offset, length] = format_.EncodeSlot(slot, target, bytes);
  rdma::WorkRequest write{.verb = rdma::Verb::kWrite,
                          .remote = address + offset,
                          .local = bytes + offset,
                          .length = length};
  stats.write_back_bytes += write.length;
  locker_->WriteBackAndRelease(client, grant, std::span(&write, 1), stats);
  return mutation == Mutation::kUpsert || found;
}

void BLinkTree::SplitAndRelease(rdma::Client& client, rdma::GlobalAddress address,
                                const LockGrant& grant, IndexOpStats& stats) {
  Scratch& scratch = ScratchOf(client);
  NodeImage& left = scratch.image;
  NodeImage& right = scratch.sibling_image;
  const rdma::GlobalAddress right_address =
      client.allocator().Allocate(client, format_.node_bytes());
  right = NodeImage{};
  right.level = left.level;
  right.high_fence = left.high_fence;
  right.sibling = left.sibling;
  uint64_t separator;
  if (left.level == 0) {
    // scratch.sorted holds every entry plus the new one, in key order.
    const size_t middle = scratch.sorted.size() / 2;
    separator = scratch.sorted[middle].key;
    left.slots.assign(scratch.sorted.begin(), scratch.sorted.begin() + middle);
    right.slots.assign(scratch.sorted.begin() + middle, scratch.sorted.end());
    if (format_.unsorted_leaves()) {
      left.slots.resize(format_.leaf_capacity());
      right.slots.resize(format_.leaf_capacity());
    }
  } else {
    // The middle separator moves up; its child leads the right node.
    std::vector<InternalEntry> all = std::move(left.entries);
    const size_t middle = all.size() / 2;
    separator = all[middle].key;
    right.leftmost = all[middle].child;
    right.entries.assign(all.begin() + middle + 1, all.end());
    all.resize(middle);
    left.entries = std::move(all);
  }
  right.low_fence = separator;
  left.high_fence = separator;
  left.sibling = right_address;
  left.version = format_.NextVersion(left.version);
  EncodeNode(client, right, scratch.sibling.data());
  EncodeNode(client, left, scratch.node.data());
  ++stats.splits;

  // The sibling must be visible before the node that points to it: in one
  // ordered batch when both live on the same memory server (paper §4.5),
  // else written and acknowledged first.
  std::vector<rdma::WorkRequest> writes;
  rdma::WorkRequest sibling_write = WholeNodeWrite(right_address, scratch.sibling);
  if (right_address.server == address.server) {
    writes.push_back(sibling_write);
  } else {
    client.Execute(std::span(&sibling_write, 1));
  }
  writes.push_back(WholeNodeWrite(address, scratch.node, format_.lock_bytes()));
  stats.write_back_bytes += uint64_t{sibling_write.length} + writes.back().length;
  locker_->WriteBackAndRelease(client, grant, writes, stats);

  if (left.level == 1) {
    CacheLevelOne(client, address, left);
    CacheLevelOne(client, right_address, right);
  }
  InsertInternal(client, separator, address, right_address, left.level + 1, stats);
}

void BLinkTree::InsertInternal(rdma::Client& client, uint64_t separator, rdma::GlobalAddress left,
                               rdma::GlobalAddress right, uint8_t level, IndexOpStats& stats) {
  Scratch& scratch = ScratchOf(client);
  for (uint32_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
    rdma::GlobalAddress via;
    rdma::GlobalAddress address = Descend(client, separator, level, stats, &via);
    if (address.IsNull()) {
      bool grown = false;
      GrowRoot(client, separator, left, right, level, stats, &grown);
      if (grown) return;
      continue;  // another client is growing the root: look again
    }
    bool wrong_node = false;
    const LockGrant grant =
        LockCovering(client, address, separator, level, stats, via, &wrong_node);
    if (wrong_node) {
      locker_->WriteBackAndRelease(client, grant, {}, stats);
      ++stats.wrong_turns;
      ForgetTopLevels(client);
      continue;
    }
    NodeImage& node = scratch.image;
    format_.Decode(scratch.node.data(), &node);
    auto at =
        std::upper_bound(node.entries.begin(), node.entries.end(), separator,
                         [](uint64_t key, const InternalEntry& entry) { return key < entry.key; });
    node.entries.insert(at, InternalEntry{separator, right});
    if (node.entries.size() > format_.internal_capacity()) {
      SplitAndRelease(client, address, grant, stats);
      return;
    }
    node.version = format_.NextVersion(node.version);
    EncodeNode(client, node, scratch.node.data());
    rdma::WorkRequest write = WholeNodeWrite(address, scratch.node, format_.lock_bytes());
    stats.write_back_bytes += write.length;
    locker_->WriteBackAndRelease(client, grant, std::span(&write, 1), stats);
    if (level == 1) {
      CacheLevelOne(client, address, node);
    } else {
      DropTopLevelNode(client, address);
    }
    return;
  }
  throw std::runtime_error("could not insert separator " + std::to_string(separator) +
                           " at level " + std::to_string(level));
}

void BLinkTree::GrowRoot(rdma::Client& client, uint64_t separator, rdma::GlobalAddress left,
                         rdma::GlobalAddress right, uint8_t level, IndexOpStats& stats,
                         bool* grown) {
  *grown = false;
  // Only the client that split the root itself may grow the tree; a client
  // that split another node of the root's level waits for that to happen.
  if (RootAddress(client, /*refresh=*/true) != left) return;
  Scratch& scratch = ScratchOf(client);
  NodeImage root;
  root.level = level;
  root.leftmost = left;
  root.entries.push_back({separator, right});
  const rdma::GlobalAddress address = WriteNewNode(client, root, scratch.parent);
  stats.write_back_bytes += format_.node_bytes();
  const uint64_t previous = client.CompareAndSwap(
      rdma::GlobalAddress::Host(0, IndexLayout::kRootPointerOffset), left.Pack(), address.Pack());
  // A lost race leaves the new node unreachable: nodes are never freed.
  *grown = previous == left.Pack();
  ForgetTopLevels(client);
}

}  // namespace dmbench::indexes
