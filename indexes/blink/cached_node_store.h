// One copy of each cached level-1 node for the index caches of every compute
// server in this process.
//
// On the simulated fabric one process holds every compute server's cache, and
// after a bulkload they all cache the same nodes: eight copies of the same
// bytes at the paper's 500 MB per cache, and eight times the CPU-cache
// footprint on every lookup. A cache that interns its nodes here shares them
// with the other caches that hold an identical copy (same address, fences and
// children). Sharing changes nothing a cache decides: each cache still
// charges every entry its full size against its own capacity and evicts,
// hits and misses as before. A node one cache refetches after a split is a
// new copy, shared only with caches that fetched the same version.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "harness/rdma/global_address.h"
#include "harness/util/flat_u64_map.h"
#include "harness/util/optional_mutex.h"

namespace dmbench::indexes {

struct CachedInternalNode;

// The routing part of a cached node, laid out for lookups in one
// allocation: this header, then its branches, each a separator beside the
// child to its right. A lookup searches the separators and reads one child;
// the child it wants (the one right of the last separator at or below its
// key) shares a CPU cache line with the separator the search read last, so
// no load waits for another line of children. child(0) is the leftmost
// child, covering [low_fence, separator(0)); child(i) covers
// [separator(i - 1), separator(i)) and the last one up to high_fence. The
// children are packed host addresses (GlobalAddress::Pack), 8 bytes where a
// GlobalAddress takes 16: a third of the store's memory at the paper's scale.
//
// Built by Create and freed by Destroy, never by new or delete: the branches
// live past the end of the object.
class CachedRoutes {
 public:
  struct Branch {
    uint64_t separator;
    uint64_t child;  // packed
  };

  // Throws std::invalid_argument if a child is not a host address.
  static CachedRoutes* Create(const CachedInternalNode& node);
  static void Destroy(const CachedRoutes* routes);
  CachedRoutes(const CachedRoutes&) = delete;
  CachedRoutes& operator=(const CachedRoutes&) = delete;

  // The branches of `routes`, found without loading its header: a caller
  // that keeps the separator count elsewhere (IndexCache's spans) starts its
  // search while the header's line is still on its way.
  static const Branch* BranchesOf(const CachedRoutes* routes) {
    return reinterpret_cast<const Branch*>(routes + 1);
  }
  std::span<const Branch> branches() const { return {BranchesOf(this), separator_count_}; }
  size_t separator_count() const { return separator_count_; }
  uint64_t separator(size_t i) const { return BranchesOf(this)[i].separator; }
  size_t child_count() const { return separator_count_ + size_t{1}; }
  rdma::GlobalAddress child(size_t i) const {
    return rdma::GlobalAddress::Unpack(i == 0 ? leftmost_child_ : BranchesOf(this)[i - 1].child);
  }

  rdma::GlobalAddress address;
  uint64_t low_fence = 0;
  uint64_t high_fence = UINT64_MAX;

 private:
  CachedRoutes() = default;
  ~CachedRoutes() = default;
  static size_t AllocationBytes(size_t separators);

  uint64_t leftmost_child_ = 0;  // packed
  uint32_t separator_count_ = 0;
};

// Thread-safe unless made for callers of one thread. Interned routes stay valid while a caller
// holds them; the store forgets a node when its last holder lets go. The store must outlive every
// node it handed out (the caches that share it).
class CachedNodeStore {
 public:
  // How a node's content is hashed; nodes of one hash share a chain and are
  // told apart by comparing.
  using ContentHasher = uint64_t (*)(const CachedInternalNode& node);

  // `hasher`: nullptr for the store's own (XXH3 over the node's words). Tests
  // pass a weak one to make nodes share chains. `threads_share`: false if
  // every caller runs on one thread (see util/optional_mutex.h).
  explicit CachedNodeStore(ContentHasher hasher = nullptr, bool threads_share = true);
  ~CachedNodeStore();
  CachedNodeStore(const CachedNodeStore&) = delete;
  CachedNodeStore& operator=(const CachedNodeStore&) = delete;

  // The shared routes of `node`: an existing copy if some holder has an
  // identical one, else a new one.
  std::shared_ptr<const CachedRoutes> Intern(const CachedInternalNode& node);

  // Distinct nodes held now, for tests and memory figures.
  size_t distinct_nodes() const;

 private:
  // A node the store knows of, in a chain of the nodes whose content hash is
  // the same (one, but for a 64-bit hash collision or two threads interning
  // the same content at once).
  struct Entry {
    std::weak_ptr<const CachedRoutes> routes;
    uint32_t next = kEndOfChain;
    bool used = false;
  };
  static constexpr uint32_t kEndOfChain = UINT32_MAX;

  // Drops the expired entries of `hash` (a node's last holder let go).
  void Forget(uint64_t hash);
  // The first entry of `hash`'s chain, or kEndOfChain. Holds mutex_.
  uint32_t ChainHeadLocked(uint64_t hash) const;
  // Unlinks and frees entry `index` of `hash`'s chain, whose predecessor is
  // `previous` (kEndOfChain for the head). Holds mutex_.
  void UnlinkLocked(uint64_t hash, uint32_t previous, uint32_t index);

  const ContentHasher hasher_;
  mutable OptionalMutex<std::mutex> mutex_;
  // By a hash of the content, the first entry of its chain; equal hashes are
  // told apart by comparing. One flat table and a vector of entries, not a
  // std::unordered_multimap: at the paper's scale the store holds 380 K nodes
  // and every miss of an index cache interns one, and a node per map entry
  // was an allocation and a cache miss each.
  FlatU64Map chain_of_hash_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> free_entries_;
  // The node interned last. Caches tend to intern one node several times in a
  // row (a prewarm fills every compute server's cache with each node in
  // turn), and comparing with it spares hashing the node and probing the
  // table: 7 of 8 interns of a prewarm, 3.2 M nodes at the paper's scale.
  std::weak_ptr<const CachedRoutes> last_interned_;
};

}  // namespace dmbench::indexes
