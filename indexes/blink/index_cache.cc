#include "indexes/blink/index_cache.h"

#include <algorithm>
#include <iterator>
#include <mutex>

namespace dmbench::indexes {

struct IndexCache::Entry {
  std::shared_ptr<const CachedRoutes> routes;  // possibly shared with other caches
  uint64_t bytes = 0;
  size_t slot = 0;  // position in entries_, kept current by swap-remove
};

namespace {

bool WellFormed(const CachedInternalNode& node) {
  if (node.low_fence >= node.high_fence) return false;
  uint64_t previous = node.low_fence;
  for (const auto& [separator, child] : node.children) {
    if (separator <= previous || separator >= node.high_fence) return false;
    previous = separator;
  }
  return true;
}

}  // namespace

IndexCache::IndexCache(uint64_t capacity_bytes, uint64_t seed,
                       std::shared_ptr<CachedNodeStore> store)
    : capacity_bytes_(capacity_bytes),
      store_(store != nullptr ? std::move(store) : std::make_shared<CachedNodeStore>()),
      random_(seed) {}

IndexCache::~IndexCache() = default;

uint64_t IndexCache::EntryBytes(const CachedInternalNode& node) {
  using Child = decltype(node.children)::value_type;
  return kEntryRecordBytes + node.children.size() * sizeof(Child) + kIndexOverheadBytes;
}

size_t IndexCache::SlotFor(const CachedRoutes& routes, uint64_t key) {
  const std::span<const uint64_t> separators = routes.separators();
  return static_cast<size_t>(std::upper_bound(separators.begin(), separators.end(), key) -
                             separators.begin());
}

uint64_t IndexCache::SlotHigh(const CachedRoutes& routes, size_t slot) {
  return slot < routes.separators().size() ? routes.separators()[slot] : routes.high_fence;
}

const IndexCache::Span* IndexCache::FindCoveringLocked(uint64_t key) const {
  const Span* span = by_low_fence_.LastAtOrBelow(key);
  return span != nullptr && key < span->high_fence ? span : nullptr;
}

void IndexCache::Touch(const Span& span) {
  std::atomic_ref(span.last_used)
      .store(clock_.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

uint64_t IndexCache::LastUsedLocked(const Entry& entry) const {
  return by_low_fence_.Find(entry.routes->low_fence)->last_used;
}

std::optional<CacheRoute> IndexCache::FindLeaf(uint64_t key) {
  std::shared_lock lock(mutex_);
  const Span* span = FindCoveringLocked(key);
  if (span == nullptr) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  Touch(*span);
  hits_.fetch_add(1, std::memory_order_relaxed);
  const CachedRoutes& routes = *span->routes;
  return CacheRoute{routes.children()[SlotFor(routes, key)], routes.address};
}

IndexCache::LeafRange IndexCache::FindLeaves(uint64_t from, uint64_t to, size_t max_leaves) {
  LeafRange result{{}, from};
  if (from >= to || max_leaves == 0) return result;
  std::shared_lock lock(mutex_);
  const Span* span = FindCoveringLocked(from);
  if (span == nullptr) return result;
  Touch(*span);
  size_t slot = SlotFor(*span->routes, from);
  while (true) {
    const CachedRoutes& routes = *span->routes;
    result.leaves.push_back(routes.children()[slot]);
    result.covered_until = SlotHigh(routes, slot);
    if (result.covered_until >= to || result.leaves.size() >= max_leaves) break;
    if (++slot <= routes.separators().size()) continue;
    // Coverage continues only into an entry that starts exactly where this
    // one ends; anything else is a gap the caller must fill remotely.
    span = by_low_fence_.Find(routes.high_fence);
    if (span == nullptr) break;
    Touch(*span);
    slot = 0;
  }
  return result;
}

void IndexCache::Insert(CachedInternalNode node) {
  if (capacity_bytes_ == 0 || !WellFormed(node)) return;
  const uint64_t bytes = EntryBytes(node);
  if (bytes > capacity_bytes_) return;
  // Allocate before locking so lookups are not held up by the allocator.
  auto entry = std::make_unique<Entry>();
  entry->routes = store_->Intern(node);
  entry->bytes = bytes;
  const uint64_t low = node.low_fence;
  const uint64_t high = node.high_fence;

  std::unique_lock lock(mutex_);
  if (const auto same = by_address_.find(node.address.Pack()); same != by_address_.end()) {
    RemoveLocked(same->second);
  }
  for (const Span& overlapping : by_low_fence_.Overlapping(low, high)) {
    RemoveLocked(by_address_.at(overlapping.routes->address.Pack()));
  }
  // Terminates: bytes <= capacity, and every eviction shrinks bytes_ towards 0.
  while (bytes_ + bytes > capacity_bytes_) EvictOneLocked();

  Entry* raw = entry.get();
  raw->slot = entries_.size();
  // A new entry counts as just used, or it would be the likeliest next victim.
  const uint64_t now = clock_.fetch_add(1, std::memory_order_relaxed) + 1;
  by_low_fence_.Insert(Span{low, high, raw->routes.get(), now});
  by_address_.emplace(node.address.Pack(), raw);
  entries_.push_back(std::move(entry));
  bytes_ += bytes;
  ++insertions_;
}

void IndexCache::Invalidate(rdma::GlobalAddress via) {
  std::unique_lock lock(mutex_);
  const auto it = by_address_.find(via.Pack());
  if (it == by_address_.end()) return;
  RemoveLocked(it->second);
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
    if (LastUsedLocked(*entries_[other]) < LastUsedLocked(*entries_[victim])) {
      victim = other;
    }
  }
  RemoveLocked(entries_[victim].get());
  ++evictions_;
}

void IndexCache::RemoveLocked(Entry* entry) {
  bytes_ -= entry->bytes;
  by_low_fence_.Erase(entry->routes->low_fence);
  by_address_.erase(entry->routes->address.Pack());
  const size_t slot = entry->slot;
  // Swap-remove keeps entries_ dense; this destroys *entry.
  if (slot + 1 != entries_.size()) {
    entries_[slot] = std::move(entries_.back());
    entries_[slot]->slot = slot;
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
                         bytes_};
}

}  // namespace dmbench::indexes
