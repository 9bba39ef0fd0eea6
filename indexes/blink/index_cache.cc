#include "indexes/blink/index_cache.h"

#include <algorithm>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <string>

#include "harness/util/interpolated_search.h"

namespace dmbench::indexes {

struct IndexCache::Entry {
  std::shared_ptr<const CachedRoutes> routes;  // possibly shared with other caches
};

namespace {

// Also: every child is a host address, as the store keeps them packed
// (cached_node_store.h); tree nodes always are.
bool WellFormed(const CachedInternalNode& node) {
  if (node.low_fence >= node.high_fence || !node.leftmost_child.Packs()) return false;
  uint64_t previous = node.low_fence;
  for (const auto& [separator, child] : node.children) {
    if (separator <= previous || separator >= node.high_fence || !child.Packs()) return false;
    previous = separator;
  }
  return true;
}

}  // namespace

IndexCache::IndexCache(uint64_t capacity_bytes, uint64_t node_bytes, uint64_t seed,
                       std::shared_ptr<CachedNodeStore> store, bool threads_share)
    : capacity_bytes_(capacity_bytes),
      node_bytes_(node_bytes),
      capacity_nodes_(node_bytes == 0 ? 0 : capacity_bytes / node_bytes),
      store_(store != nullptr ? std::move(store)
                              : std::make_shared<CachedNodeStore>(nullptr, threads_share)),
      mutex_(threads_share),
      random_(seed) {
  if (node_bytes_ == 0) throw std::invalid_argument("index cache: node_bytes must be positive");
}

IndexCache::~IndexCache() = default;

size_t IndexCache::SlotFor(const Span& span, uint64_t key) {
  // The separators lie between the fences, which the span holds as the
  // routes' header does: bounds for the search's guess that spare loading
  // the last separator, a cache miss. An unbounded high fence says nothing
  // of them.
  const CachedRoutes::Branch* const begin = CachedRoutes::BranchesOf(span.routes);
  const CachedRoutes::Branch* const end = begin + span.separator_count();
  const auto separator_of = [](const CachedRoutes::Branch& branch) { return branch.separator; };
  const CachedRoutes::Branch* const after =
      span.high_fence == UINT64_MAX ? InterpolatedUpperBound(begin, end, key, separator_of)
                                    : InterpolatedUpperBoundWithin(begin, end, key, separator_of,
                                                                   span.low_fence, span.high_fence);
  return static_cast<size_t>(after - begin);
}

uint64_t IndexCache::SlotHigh(const CachedRoutes& routes, size_t slot) {
  return slot < routes.separator_count() ? routes.separator(slot) : routes.high_fence;
}

const IndexCache::Span* IndexCache::IfCovering(const Span* at_or_below, uint64_t key) {
  return at_or_below != nullptr && key < at_or_below->high_fence ? at_or_below : nullptr;
}

const IndexCache::Span* IndexCache::FindCoveringLocked(uint64_t key) const {
  return IfCovering(by_low_fence_.LastAtOrBelow(key), key);
}

void IndexCache::Touch(const Span& span) {
  const uint64_t now = clock_.fetch_add(1, std::memory_order_relaxed) + 1;
  // The count never changes, so a concurrent Touch rewrites the same bits.
  std::atomic_ref use_and_count(span.use_and_count);
  use_and_count.store((now << Span::kCountBits) |
                          (use_and_count.load(std::memory_order_relaxed) & Span::kCountMask),
                      std::memory_order_relaxed);
}

uint64_t IndexCache::LastUsedLocked(const Entry& entry) const {
  return by_low_fence_.Find(entry.routes->low_fence)->last_used();
}

IndexCache::LookupHints::Taken IndexCache::NoteOfLocked(uint64_t key) const {
  return {this, key, by_low_fence_.version()};
}

bool IndexCache::HoldsLocked(const LookupHints::Taken& taken, uint64_t key) const {
  return taken.key == key && taken.cache == this && taken.version == by_low_fence_.version();
}

const IndexCache::Span* IndexCache::FindCoveringLocked(uint64_t key,
                                                       const LookupHints* hints) const {
  if (hints != nullptr) {
    for (const LookupHints::Note& note : hints->notes_) {
      if (HoldsLocked(note.of, key)) return note.span;
    }
  }
  return FindCoveringLocked(key);
}

const IndexCache::Span* IndexCache::FindCoveringInNotedChunkLocked(uint64_t key,
                                                                   const LookupHints* hints) const {
  if (hints != nullptr) {
    for (const LookupHints::ChunkNote& note : hints->chunk_notes_) {
      if (!HoldsLocked(note.of, key)) continue;
      return IfCovering(by_low_fence_.LastAtOrBelow(key, note.chunk), key);
    }
  }
  return FindCoveringLocked(key);
}

std::optional<CacheRoute> IndexCache::FindLeaf(uint64_t key, const LookupHints* hints) {
  std::shared_lock lock(mutex_);
  const Span* span = FindCoveringLocked(key, hints);
  if (span == nullptr) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  Touch(*span);
  hits_.fetch_add(1, std::memory_order_relaxed);
  return CacheRoute{span->routes->child(SlotFor(*span, key)),
                    rdma::GlobalAddress::Unpack(span->address)};
}

void IndexCache::Prefetch(uint64_t key, size_t distance, LookupHints* hints) const {
  std::shared_lock lock(mutex_);
  if (distance > 1) {
    const size_t chunk = by_low_fence_.PrefetchAtOrBelow(key);
    if (hints != nullptr) {
      hints->chunk_notes_[hints->next_chunk_] = {NoteOfLocked(key), chunk};
      hints->next_chunk_ ^= 1;
    }
    return;
  }
  const Span* span = FindCoveringInNotedChunkLocked(key, hints);
  if (hints != nullptr) {
    hints->notes_[hints->next_] = {NoteOfLocked(key), span};
    hints->next_ ^= 1;
  }
  if (span == nullptr) return;
  // The branches SlotFor's search loads first; unbounded, it loads the first
  // separator before it guesses. (The routes' header, which FindLeaf reads
  // only for the leftmost child, is left alone.)
  const CachedRoutes::Branch* const branches = CachedRoutes::BranchesOf(span->routes);
  const size_t count = span->separator_count();
  if (count == 0) return;
  const size_t first = span->high_fence == UINT64_MAX
                           ? 0
                           : FirstProbe(count, key, span->low_fence, span->high_fence);
  __builtin_prefetch(branches + first);
  if (first + 1 < count) __builtin_prefetch(branches + first + 1);
}

IndexCache::LeafRange IndexCache::FindLeaves(uint64_t from, uint64_t to, size_t max_leaves) {
  LeafRange result{{}, from};
  if (from >= to || max_leaves == 0) return result;
  std::shared_lock lock(mutex_);
  const Span* span = FindCoveringLocked(from);
  if (span == nullptr) return result;
  Touch(*span);
  size_t slot = SlotFor(*span, from);
  while (true) {
    const CachedRoutes& routes = *span->routes;
    result.leaves.push_back(routes.child(slot));
    result.covered_until = SlotHigh(routes, slot);
    if (result.covered_until >= to || result.leaves.size() >= max_leaves) break;
    if (++slot <= routes.separator_count()) continue;
    // Coverage continues only into an entry that starts exactly where this
    // one ends; anything else is a gap the caller must fill remotely.
    span = by_low_fence_.Find(routes.high_fence);
    if (span == nullptr) break;
    Touch(*span);
    slot = 0;
  }
  return result;
}

void IndexCache::Insert(const CachedInternalNode& node) {
  // (A node of 64 KiB, the largest a run may have, has 4,095 separators at
  // most, far below what a span counts.)
  if (capacity_nodes_ == 0 || !WellFormed(node) || node.children.size() > Span::kCountMask) {
    return;
  }
  // Intern before locking so lookups are not held up by the store.
  std::shared_ptr<const CachedRoutes> routes = store_->Intern(node);
  const uint64_t low = node.low_fence;
  const uint64_t high = node.high_fence;

  std::unique_lock lock(mutex_);
  if (const uint64_t same = slot_by_address_.Find(node.address.Pack());
      same != FlatU64Map::kNoValue) {
    RemoveLocked(same);
  }
  for (const Span& overlapping : by_low_fence_.Overlapping(low, high)) {
    RemoveLocked(SlotOfLocked(overlapping.routes->address));
  }
  // Terminates: capacity_nodes_ > 0, and every eviction drops an entry.
  while (entries_.size() >= capacity_nodes_) EvictOneLocked();

  // A new entry counts as just used, or it would be the likeliest next victim.
  const uint64_t now = clock_.fetch_add(1, std::memory_order_relaxed) + 1;
  by_low_fence_.Insert(Span{low, high, routes.get(), node.address.Pack(),
                            (now << Span::kCountBits) | routes->separator_count()});
  slot_by_address_.Put(node.address.Pack(), entries_.size());
  entries_.push_back(Entry{std::move(routes)});
  ++insertions_;
}

void IndexCache::Invalidate(rdma::GlobalAddress via) {
  std::unique_lock lock(mutex_);
  const uint64_t slot = slot_by_address_.Find(via.Pack());
  if (slot == FlatU64Map::kNoValue) return;
  RemoveLocked(slot);
  ++invalidations_;
}

void IndexCache::EvictOneLocked() {
  const size_t count = entries_.size();
  size_t victim = random_.Uniform(count);
  if (count >= 2) {
    // Two distinct candidates: drawing the same one twice would degrade to
    // random eviction.
    size_t other = random_.Uniform(count - 1);
    if (other >= victim) ++other;
    if (LastUsedLocked(entries_[other]) < LastUsedLocked(entries_[victim])) victim = other;
  }
  RemoveLocked(victim);
  ++evictions_;
}

size_t IndexCache::SlotOfLocked(rdma::GlobalAddress address) const {
  const uint64_t slot = slot_by_address_.Find(address.Pack());
  if (slot == FlatU64Map::kNoValue) {
    throw std::logic_error("index cache: a span without an entry (server " +
                           std::to_string(address.server) + ", offset " +
                           std::to_string(address.offset) + ")");
  }
  return slot;
}

void IndexCache::RemoveLocked(size_t slot) {
  Entry& entry = entries_[slot];
  by_low_fence_.Erase(entry.routes->low_fence);
  slot_by_address_.Erase(entry.routes->address.Pack());
  // Swap-remove keeps entries_ dense; this drops the entry's routes.
  if (slot + 1 != entries_.size()) {
    entry = std::move(entries_.back());
    slot_by_address_.Put(entry.routes->address.Pack(), slot);
  }
  entries_.pop_back();
}

IndexCacheStats IndexCache::stats() const {
  std::shared_lock lock(mutex_);
  return IndexCacheStats{hits_.load(std::memory_order_relaxed),
                         misses_.load(std::memory_order_relaxed),
                         insertions_,
                         evictions_,
                         invalidations_,
                         entries_.size(),
                         entries_.size() * node_bytes_};
}

}  // namespace dmbench::indexes
