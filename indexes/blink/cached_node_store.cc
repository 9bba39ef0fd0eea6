#include "indexes/blink/cached_node_store.h"

// For XXH3_state_t's layout, so that the streaming state lives on the stack.
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include <array>
#include <cassert>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "indexes/blink/index_cache.h"

namespace dmbench::indexes {

namespace {

// XXH3 over the node's words, streamed through a block on the stack: the
// prewarm of eight paper-size caches interns 3.2 M nodes, and a vector per
// call was a heap allocation each.
uint64_t ContentHash(const CachedInternalNode& node) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  std::array<uint64_t, 64> block;
  size_t used = 0;
  const auto add = [&](uint64_t word) {
    block[used++] = word;
    if (used == block.size()) {
      XXH3_64bits_update(&state, block.data(), sizeof(block));
      used = 0;
    }
  };
  add(node.address.Pack());
  add(static_cast<uint64_t>(node.address.space));
  add(node.low_fence);
  add(node.high_fence);
  add(node.leftmost_child.Pack());
  for (const auto& [separator, child] : node.children) {
    add(separator);
    add(child.Pack());
  }
  XXH3_64bits_update(&state, block.data(), used * sizeof(uint64_t));
  return XXH3_64bits_digest(&state);
}

bool SameContent(const CachedRoutes& routes, const CachedInternalNode& node) {
  if (routes.address != node.address || routes.low_fence != node.low_fence ||
      routes.high_fence != node.high_fence || routes.separator_count() != node.children.size() ||
      routes.child(0) != node.leftmost_child) {
    return false;
  }
  const std::span<const CachedRoutes::Branch> branches = routes.branches();
  for (size_t i = 0; i < node.children.size(); ++i) {
    if (branches[i].separator != node.children[i].first ||
        branches[i].child != node.children[i].second.Pack()) {
      return false;
    }
  }
  return true;
}

}  // namespace

size_t CachedRoutes::AllocationBytes(size_t separators) {
  // The branches follow the header unpadded.
  static_assert(sizeof(CachedRoutes) % alignof(Branch) == 0);
  return sizeof(CachedRoutes) + separators * sizeof(Branch);
}

CachedRoutes* CachedRoutes::Create(const CachedInternalNode& node) {
  const size_t count = node.children.size();
  if (count >= UINT32_MAX) throw std::length_error("a cached node with too many separators");
  bool all_pack = node.leftmost_child.Packs();
  for (const auto& [separator, child] : node.children) all_pack = all_pack && child.Packs();
  if (!all_pack) {
    throw std::invalid_argument(
        "a cached node of memory server " + std::to_string(node.address.server) + " at offset " +
        std::to_string(node.address.offset) + " has a child outside host memory");
  }
  void* memory = ::operator new(AllocationBytes(count));
  auto* routes = new (memory) CachedRoutes();
  routes->address = node.address;
  routes->low_fence = node.low_fence;
  routes->high_fence = node.high_fence;
  routes->leftmost_child_ = node.leftmost_child.Pack();
  routes->separator_count_ = static_cast<uint32_t>(count);
  auto* branches = const_cast<Branch*>(BranchesOf(routes));
  for (size_t i = 0; i < count; ++i) {
    branches[i] = {node.children[i].first, node.children[i].second.Pack()};
  }
  return routes;
}

void CachedRoutes::Destroy(const CachedRoutes* routes) {
  if (routes == nullptr) return;
  routes->~CachedRoutes();
  ::operator delete(const_cast<CachedRoutes*>(routes));
}

CachedNodeStore::CachedNodeStore(ContentHasher hasher, bool threads_share)
    : hasher_(hasher != nullptr ? hasher : ContentHash), mutex_(threads_share) {}

CachedNodeStore::~CachedNodeStore() {
  // Every holder let go first (the contract), so only expired entries remain.
  for ([[maybe_unused]] const Entry& entry : entries_)
    assert(!entry.used || entry.routes.expired());
}

std::shared_ptr<const CachedRoutes> CachedNodeStore::Intern(const CachedInternalNode& node) {
  // Candidates locked but not taken are released after the lock: dropping the
  // last holder of one runs Forget(), which takes the lock. The last node
  // interned is a candidate at almost every call, so it has a place of its
  // own; the vector, for live nodes of the same hash, rarely allocates.
  std::shared_ptr<const CachedRoutes> last;
  std::vector<std::shared_ptr<const CachedRoutes>> passed_over;
  {
    std::lock_guard lock(mutex_);
    last = last_interned_.lock();
    if (last != nullptr && SameContent(*last, node)) return last;
  }
  const uint64_t hash = hasher_(node);
  {
    std::lock_guard lock(mutex_);
    for (uint32_t index = ChainHeadLocked(hash); index != kEndOfChain;
         index = entries_[index].next) {
      // An expired entry is one whose deleter has yet to run Forget(), which
      // unlinks it.
      std::shared_ptr<const CachedRoutes> existing = entries_[index].routes.lock();
      if (existing == nullptr) continue;
      if (SameContent(*existing, node)) {
        last_interned_ = existing;
        return existing;
      }
      passed_over.push_back(std::move(existing));
    }
  }
  std::shared_ptr<const CachedRoutes> shared(CachedRoutes::Create(node),
                                             [this, hash](const CachedRoutes* gone) {
                                               CachedRoutes::Destroy(gone);
                                               Forget(hash);
                                             });
  std::lock_guard lock(mutex_);
  // Another thread may have interned the same content meanwhile; two copies
  // are harmless (each routes alike), so both stay, the newer at the head.
  uint32_t index;
  if (!free_entries_.empty()) {
    index = free_entries_.back();
    free_entries_.pop_back();
  } else {
    if (entries_.size() >= kEndOfChain) throw std::length_error("CachedNodeStore: too many nodes");
    index = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  entries_[index] = Entry{shared, ChainHeadLocked(hash), true};
  chain_of_hash_.Put(hash, index);
  last_interned_ = shared;
  return shared;
}

uint32_t CachedNodeStore::ChainHeadLocked(uint64_t hash) const {
  const uint64_t head = chain_of_hash_.Find(hash);
  return head == FlatU64Map::kNoValue ? kEndOfChain : static_cast<uint32_t>(head);
}

void CachedNodeStore::UnlinkLocked(uint64_t hash, uint32_t previous, uint32_t index) {
  Entry& entry = entries_[index];
  if (previous != kEndOfChain) {
    entries_[previous].next = entry.next;
  } else if (entry.next != kEndOfChain) {
    chain_of_hash_.Put(hash, entry.next);
  } else {
    chain_of_hash_.Erase(hash);
  }
  entry = Entry{};
  free_entries_.push_back(index);
}

void CachedNodeStore::Forget(uint64_t hash) {
  std::lock_guard lock(mutex_);
  uint32_t previous = kEndOfChain;
  uint32_t index = ChainHeadLocked(hash);
  while (index != kEndOfChain) {
    const uint32_t next = entries_[index].next;
    if (entries_[index].routes.expired()) {
      UnlinkLocked(hash, previous, index);
    } else {
      previous = index;
    }
    index = next;
  }
}

size_t CachedNodeStore::distinct_nodes() const {
  std::lock_guard lock(mutex_);
  size_t live = 0;
  for (const Entry& entry : entries_) live += entry.used && !entry.routes.expired() ? 1 : 0;
  return live;
}

}  // namespace dmbench::indexes
