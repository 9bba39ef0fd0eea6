// Bulkload: builds the tree bottom-up from sorted keys, as the paper's
// experiments do before each run (§5.1: 80% full). One pass over the entries
// fixes the tree's shape (each node's low fence and address); the nodes'
// bytes are a BulkloadImage, which the client writes now or, on the
// simulated fabric, when a run first touches each node.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "harness/rdma/chunk_allocator.h"
#include "harness/util/random.h"
#include "indexes/blink/blink_tree.h"
#include "indexes/blink/blink_tree_internals.h"
#include "indexes/blink/bulkload_image.h"
#include "indexes/common/index_layout.h"

namespace dmbench::indexes {

void BLinkTree::Bulkload(rdma::Client& client, std::shared_ptr<const BulkloadSource> source,
                         double fill_factor) {
  if (!(fill_factor > 0 && fill_factor <= 1)) {
    throw std::invalid_argument("bulkload fill factor must be in (0, 1], got " +
                                std::to_string(fill_factor));
  }
  const auto per_leaf =
      static_cast<size_t>(std::max<double>(1, std::floor(format_.leaf_capacity() * fill_factor)));
  // An internal node of n entries has n + 1 children.
  const auto per_internal = static_cast<size_t>(
      std::max<double>(2, std::floor((format_.internal_capacity() + 1) * fill_factor)));

  // The leaves' low fences: the first leaf's is 0, every other's the key
  // that opens it.
  std::vector<BulkloadImage::Level> levels(1);
  levels[0].in_key_order.push_back({0, 0});
  bool first_leaf = true;
  const uint64_t count = source->EveryNthKey(per_leaf, [&](uint64_t key) {
    if (!first_leaf) levels[0].in_key_order.push_back({key, 0});
    first_leaf = false;
  });
  if (count != source->size()) {
    throw std::logic_error("bulkload source gave " + std::to_string(count) +
                           " entries but says it holds " + std::to_string(source->size()));
  }

  // Nodes go to the memory servers in turn, one by one, so that neither the
  // leaves of a key range nor the internal nodes pile up on one server.
  uint64_t placed = 0;
  auto place = [&]() {
    return client.allocator()
        .AllocateOn(client, format_.node_bytes(),
                    static_cast<uint32_t>(placed++ % shape_.memory_servers))
        .Pack();
  };
  for (BulkloadImage::Level::Node& leaf : levels[0].in_key_order) leaf.address = place();
  while (levels.back().nodes() > 1) {
    const BulkloadImage::Level& below = levels.back();
    BulkloadImage::Level above;
    for (size_t i = 0; i < below.nodes(); i += per_internal) {
      above.in_key_order.push_back({below.low_fence(i), place()});
    }
    levels.push_back(std::move(above));
  }

  auto image = std::make_shared<BulkloadImage>(format_, std::move(source), std::move(levels),
                                               per_leaf, per_internal);
  client.WriteDeferred(image);
  const uint64_t root = image->root().Pack();
  client.Write(rdma::GlobalAddress::Host(0, IndexLayout::kRootPointerOffset), &root, sizeof(root));
  // Every compute server starts from a cold cache over the new tree, or from
  // one holding its level-1 nodes.
  ResetComputeServers();
  if (options_.cache_prewarm) PrewarmCaches(*image);
}

void BLinkTree::PrewarmCaches(const BulkloadImage& image) {
  // The copies lookups would cache after reading each parent of leaves,
  // made from the shape instead of the bytes, which stay unbuilt.
  std::vector<bool> full(compute_servers_.size(), false);
  CachedInternalNode node;
  for (uint64_t parent = 0; parent < image.nodes(1); ++parent) {
    LevelOneCopy(image.NodeAddress(1, parent), image.Internal(1, parent), &node);
    bool any = false;
    for (size_t server = 0; server < compute_servers_.size(); ++server) {
      if (full[server]) continue;
      IndexCache& cache = compute_servers_[server]->cache;
      // No eviction: a cache too small for every node keeps those of the
      // lowest keys, and says so in its entry count.
      if (cache.stats().bytes + cache.node_bytes() > cache.capacity_bytes()) {
        full[server] = true;
        continue;
      }
      cache.Insert(node);
      any = true;
    }
    if (!any) return;
  }
}

}  // namespace dmbench::indexes
