// The compute-side index cache of Sherman (SIGMOD'22, §4.2.3): copies of the
// level-1 internal nodes (the parents of leaves), so that a lookup that hits
// the cache reaches its leaf with a single RDMA READ.
//
// Cached copies may be stale. That is safe because internal nodes only hold
// locations: the caller checks the fence keys and level of every leaf it
// fetches and, on a wrong turn, calls Invalidate() on the entry that steered
// it there and retries. The top two levels of the tree are cached elsewhere.
//
// The paper uses a lock-free skiplist; a shared_mutex around an ordered map
// keeps this simple while lookups (the common case) still run in parallel.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "harness/rdma/global_address.h"
#include "harness/util/flat_u64_map.h"
#include "harness/util/optional_mutex.h"
#include "harness/util/random.h"
#include "indexes/blink/cached_node_store.h"
#include "indexes/blink/fence_ordered_spans.h"

namespace dmbench::indexes {

// A parsed copy of one level-1 internal node. The node covers
// [low_fence, high_fence); high_fence == UINT64_MAX means +infinity, whose
// largest key is UINT64_MAX - 1. The leftmost child covers
// [low_fence, first separator) and children[i] covers
// [separator_i, separator_{i+1}) (the last one up to high_fence).
struct CachedInternalNode {
  rdma::GlobalAddress address;
  uint64_t low_fence = 0;
  uint64_t high_fence = UINT64_MAX;
  rdma::GlobalAddress leftmost_child;
  // (separator, child), strictly ascending separators, all in (low_fence, high_fence).
  std::vector<std::pair<uint64_t, rdma::GlobalAddress>> children;
};

struct CacheRoute {
  rdma::GlobalAddress leaf;
  rdma::GlobalAddress via;  // the cached node used: what to Invalidate() on a wrong turn
};

struct IndexCacheStats {
  uint64_t hits = 0;           // FindLeaf calls answered from the cache
  uint64_t misses = 0;         // FindLeaf calls not answered
  uint64_t insertions = 0;     // nodes admitted by Insert
  uint64_t evictions = 0;      // entries dropped to make room
  uint64_t invalidations = 0;  // entries dropped by Invalidate
  uint64_t entries = 0;        // entries cached now
  uint64_t bytes = 0;          // entries x node_bytes()
};

// All methods may be called concurrently from several threads, unless it was
// made for callers of one thread.
class IndexCache {
 public:
  // capacity_bytes == 0 disables the cache: every lookup misses and nothing
  // is inserted. Every cached node costs `node_bytes` (> 0), the size of an
  // internal node, against the capacity, whatever its separators and however
  // this process stores it: Sherman's cache holds capacity / sizeof(InternalPage)
  // whole pages (its IndexCache.h), so that is how many nodes a capacity
  // holds. seed drives the eviction choice, so that simulated runs are
  // reproducible. `store` holds the nodes, shared with the other caches that
  // use it (null: a store of its own); it must outlive this cache.
  // `threads_share`: false if every caller runs on one thread (see
  // util/optional_mutex.h), which the methods then need not lock against.
  IndexCache(uint64_t capacity_bytes, uint64_t node_bytes, uint64_t seed,
             std::shared_ptr<CachedNodeStore> store = nullptr, bool threads_share = true);
  ~IndexCache();
  IndexCache(const IndexCache&) = delete;
  IndexCache& operator=(const IndexCache&) = delete;

  class LookupHints;

  // The leaf that should hold `key`, if a cached node covers it. Counts a hit
  // or a miss and marks the entry recently used. `hints`, if given, may
  // spare the search for the entry (see LookupHints); the answer is the same.
  std::optional<CacheRoute> FindLeaf(uint64_t key, const LookupHints* hints = nullptr);

  // Hints that FindLeaf(key) comes soon, after `distance` - 1 other lookups
  // of the caller: at distance 2 or more prefetches the entry FindLeaf will
  // look at first, at distance 1 finds the entry (prefetched before, so
  // this is quick), prefetches the branch it will take and, given `hints`,
  // notes the entry there. Changes nothing FindLeaf returns, counts or
  // evicts.
  void Prefetch(uint64_t key, size_t distance, LookupHints* hints = nullptr) const;

  // The leaves covering [from, to) in key order, as far as cached nodes cover
  // the range contiguously from `from`, at most `max_leaves` of them; stops at
  // the first gap. covered_until is the high fence of the last leaf's slot
  // (`from` when no leaf is returned), so the caller traverses remotely from
  // there. Marks the entries used as recently used but does not count hits or
  // misses: those measure point lookups.
  struct LeafRange {
    std::vector<rdma::GlobalAddress> leaves;
    uint64_t covered_until = 0;
  };
  LeafRange FindLeaves(uint64_t from, uint64_t to, size_t max_leaves);

  // Adds `node`, first removing every entry with the same address or a fence
  // range overlapping the node's (the new copy is assumed fresher: splits
  // shrink ranges, and a freed address may be reused for another range).
  // Then evicts by power-of-two-choices until the node fits. Not cached: a
  // node larger than the whole capacity, one of more than 65,535 separators
  // (more than a span counts), or a malformed one (empty fence range,
  // separators not strictly ascending inside it), since one bad copy would
  // otherwise misroute lookups until it is evicted.
  void Insert(const CachedInternalNode& node);

  // Drops the cached node at `via`, if present.
  void Invalidate(rdma::GlobalAddress via);

  IndexCacheStats stats() const;
  uint64_t capacity_bytes() const { return capacity_bytes_; }

  // What one cached node costs against the capacity.
  uint64_t node_bytes() const { return node_bytes_; }

 private:
  struct Entry;

  // Callers hold mutex_ exclusively. `slot` indexes entries_.
  void RemoveLocked(size_t slot);
  void EvictOneLocked();
  // The slot of the entry at `address`, which must be held.
  size_t SlotOfLocked(rdma::GlobalAddress address) const;

  struct Span;

 public:
  // One caller's note of the entries Prefetch found at distance 1, so that
  // its FindLeaf of the same key uses the entry instead of searching for it
  // again (two interpolated searches repeated one operation after the
  // prefetch: 2.4% of a 10 M-key read-intensive simulation's instructions);
  // and of the chunks of entries it found at distance 2, so that its
  // prefetch of the same key at distance 1 searches that chunk alone (the
  // chunks' index searched once, not twice: 0.5%).
  // A note holds while no entry has been inserted or removed since it was
  // taken, and for the cache that took it only. Keeps the last two of each:
  // the driver prefetches for the next operations before it runs the
  // current one.
  // Owned by the caller, one per caller, used by one thread at a time; it
  // must not outlive the caches it is given to (a cache made later at the
  // same address could take another's note for its own).
  class LookupHints {
   private:
    friend class IndexCache;
    // What a note is of; a note of nothing holds for no cache.
    struct Taken {
      const IndexCache* cache = nullptr;
      uint64_t key = 0;
      uint64_t version = 0;
    };
    struct Note {
      Taken of;
      const Span* span = nullptr;  // null: no entry covered the key
    };
    struct ChunkNote {
      Taken of;
      size_t chunk = 0;  // as FenceOrderedSpans::PrefetchAtOrBelow returned it
    };
    Note notes_[2];
    size_t next_ = 0;  // the note to overwrite next
    ChunkNote chunk_notes_[2];
    size_t next_chunk_ = 0;
  };

 private:
  // The child slot of the span's entry that covers `key` (0 = leftmost
  // child), which must lie in the span.
  static size_t SlotFor(const Span& span, uint64_t key);
  static uint64_t SlotHigh(const CachedRoutes& routes, size_t slot);
  // The entry covering key, or null; callers hold mutex_ in either mode.
  const Span* FindCoveringLocked(uint64_t key) const;
  // `at_or_below` (the entry with the greatest low fence <= key, or null)
  // if it covers `key`, else null.
  static const Span* IfCovering(const Span* at_or_below, uint64_t key);
  // FindCoveringLocked(key), from a note of `hints` when one holds for it.
  const Span* FindCoveringLocked(uint64_t key, const LookupHints* hints) const;
  // The same, searching only the chunk a chunk note of `hints` holds for
  // `key`, when one does (Prefetch at distance 1).
  const Span* FindCoveringInNotedChunkLocked(uint64_t key, const LookupHints* hints) const;
  // What a note taken now of `key` is of; whether `taken` holds for `key`.
  LookupHints::Taken NoteOfLocked(uint64_t key) const;
  bool HoldsLocked(const LookupHints::Taken& taken, uint64_t key) const;
  void Touch(const Span& span);
  // The last use of a held entry; callers hold mutex_ exclusively.
  uint64_t LastUsedLocked(const Entry& entry) const;

  const uint64_t capacity_bytes_;
  const uint64_t node_bytes_;
  // How many nodes fit: Sherman's all_page_cnt.
  const uint64_t capacity_nodes_;
  const std::shared_ptr<CachedNodeStore> store_;

  mutable OptionalMutex<std::shared_mutex> mutex_;
  // Fence ranges of cached entries never overlap, so the low fence orders
  // them. Sorted arrays rather than a tree: every lookup binary-searches
  // them, and contiguous memory spares the pointer chase through thousands
  // of nodes. The high fence is kept beside it, so that a lookup that misses
  // touches no entry, and the separator count too, so that a lookup that
  // hits finds its child without first waiting for the entry's header: the
  // search's loads and the header's go out together.
  struct Span {
    uint64_t low_fence;
    uint64_t high_fence;
    const CachedRoutes* routes;  // the entry's
    // routes->address, packed: a lookup answers with it, and the routes'
    // header, where it is held too, was a miss to DRAM of its own at 1 B
    // keys (the child a lookup takes is in its branch's line).
    uint64_t address;
    // The entry's last use, on the clock_, above kCountBits bits of
    // routes->separator_count(). The use is kept here, not in the entry, so
    // that a lookup writes the line it has just read instead of missing on
    // another (the entry is usually a cache miss in a simulation's working
    // set). Written by lookups under the shared lock through atomic_ref; a
    // clock of 48 bits takes a lookup a nanosecond for three days to wrap.
    mutable uint64_t use_and_count;

    static constexpr int kCountBits = 16;
    static constexpr uint64_t kCountMask = (uint64_t{1} << kCountBits) - 1;
    // Atomic loads: a lookup under the shared lock may Touch the word while
    // another reads its count.
    size_t separator_count() const { return UseAndCount() & kCountMask; }
    uint64_t last_used() const { return UseAndCount() >> kCountBits; }
    uint64_t UseAndCount() const {
      return std::atomic_ref(use_and_count).load(std::memory_order_relaxed);
    }
  };
  FenceOrderedSpans<Span> by_low_fence_;
  // Packed address -> slot in entries_; hashed, since only Insert and
  // Invalidate look here and a tree's probes were cache misses at the
  // paper's scale. A flat table, not a node per entry: eight caches of the
  // paper's size hold 3.2 M entries, and allocating and freeing their nodes
  // took seconds of every 1 B-key run.
  FlatU64Map slot_by_address_;
  // The entries, densely, so that eviction draws a uniform victim in O(1).
  std::vector<Entry> entries_;
  uint64_t insertions_ = 0;
  uint64_t evictions_ = 0;
  uint64_t invalidations_ = 0;
  Random random_;  // only under the exclusive lock

  // Updated under the shared lock, hence atomic.
  std::atomic<uint64_t> clock_{0};
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
};

}  // namespace dmbench::indexes
