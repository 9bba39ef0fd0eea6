// State the tree engine keeps on the compute side; shared by its .cc files.
#pragma once

#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "harness/util/optional_mutex.h"
#include "indexes/blink/blink_tree.h"
#include "indexes/blink/key_address_cache.h"

namespace dmbench::indexes {

// Per compute server: the level-1 index cache, the top two levels and, with
// speculative lookup, the key-to-entry hints.
struct BLinkTree::ComputeServerState {
  // `threads_share`: false if every client runs on one thread (see
  // util/optional_mutex.h).
  ComputeServerState(const TreeOptions& options, uint64_t seed,
                     std::shared_ptr<CachedNodeStore> store, bool threads_share)
      : cache(options.cache_bytes, options.node_bytes, seed, std::move(store), threads_share),
        top_mutex(threads_share) {
    if (options.speculative_lookup) {
      hints = std::make_unique<KeyAddressCache>(options.speculative_hints);
    }
  }

  IndexCache cache;
  std::unique_ptr<KeyAddressCache> hints;      // null without speculative lookup
  OptionalMutex<std::shared_mutex> top_mutex;  // guards the fields below
  rdma::GlobalAddress root;                    // Null until first read
  uint8_t root_level = 0;
  std::unordered_map<uint64_t, std::shared_ptr<const NodeImage>> top_nodes;  // by packed address
};

// Per client: buffers reused by every operation, so no operation allocates.
struct BLinkTree::Scratch {
  explicit Scratch(uint32_t node_bytes)
      : node(node_bytes), sibling(node_bytes), parent(node_bytes) {}
  std::vector<uint8_t> node;
  std::vector<uint8_t> sibling;
  std::vector<uint8_t> parent;
  NodeImage image;
  NodeImage sibling_image;
  NodeImage internal;            // InternalNode's, below the top levels
  CachedInternalNode level_one;  // CacheLevelOne's copy for the index cache
  std::vector<LeafSlot> sorted;
  IndexCache::LookupHints cache_lookup_hints;  // what Prefetch found, for Descend
};

// Operations give up with an error rather than loop forever if the tree is
// broken; real contention never comes near these bounds.
constexpr uint32_t kMaxAttempts = 1'000'000;

}  // namespace dmbench::indexes
