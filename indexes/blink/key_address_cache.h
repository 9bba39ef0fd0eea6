// The key-to-entry hints of SMART-BT's speculative lookup (SMART, ASPLOS'24
// §5): per compute server, where in remote memory a key's leaf entry was last
// found, so that a lookup can READ that one cacheline instead of the whole
// leaf, and fall back to the regular path when the line no longer holds the
// key.
//
// Direct-mapped: a key has one slot, chosen by a hash, and remembering a key
// overwrites whatever hint held that slot, as SMART's GenericCache does
// (its default capacity is 1,000,000 entries per compute blade).
//
// A hint may be stale (the key moved right in a split, or was deleted): that
// is safe because the caller checks the key in the line it reads, and leaves
// never become other nodes (the tree frees no node), so the line is always a
// leaf's.
//
// All methods may be called concurrently from several threads.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "harness/rdma/global_address.h"

namespace dmbench::indexes {

struct EntryHint {
  rdma::GlobalAddress leaf;
  uint32_t slot = 0;  // the leaf slot that held the key
};

class KeyAddressCache {
 public:
  // `entries` > 0 slots; their memory is taken up front (kEntryBytes each).
  explicit KeyAddressCache(uint64_t entries);
  // What one slot holds in memory; memory budgets count it before building.
  static constexpr uint64_t kEntryBytes = 24;

  std::optional<EntryHint> Find(uint64_t key) const;
  void Remember(uint64_t key, EntryHint hint);
  // Drops `key`'s hint if its slot holds one.
  void Forget(uint64_t key);

 private:
  struct Slot {
    uint64_t key = 0;   // 0 (never a user key): empty
    uint64_t leaf = 0;  // packed GlobalAddress
    uint32_t slot = 0;
  };
  static constexpr size_t kStripes = 64;

  size_t IndexOf(uint64_t key) const;
  std::mutex& StripeOf(size_t index) const { return stripes_[index % kStripes]; }

  std::vector<Slot> slots_;
  mutable std::mutex stripes_[kStripes];  // each guards the slots congruent to it
};

}  // namespace dmbench::indexes
