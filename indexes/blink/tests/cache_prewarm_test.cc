// index.cache_prewarm: every compute server's cache starts with the level-1
// nodes a bulkload made, the copies lookups would have cached after reading
// each of them, so that a lookup goes to its leaf in one READ from the start.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "indexes/blink/tests/tree_test_support.h"

namespace dmbench::indexes {
namespace {

constexpr uint32_t kPrewarmMachines = 3;
constexpr uint64_t kPrewarmKeys = 20000;  // keys 1, 4, 7, ...: 1 KiB nodes give three levels
constexpr uint64_t kStride = 3;

using Loaded = test_support::TreeFixture;

Loaded Bulkloaded(const TreeOptions& options) {
  Loaded loaded = test_support::MakeFixture(options, kPrewarmMachines, 1, 1, 7);
  test_support::Bulkload(loaded, kPrewarmKeys, kStride, 0.8, nullptr);
  return loaded;
}

// Looks up every bulkloaded key from the first client of each compute
// server, checking each value; the summed stats.
IndexOpStats LookUpEveryKey(Loaded& loaded) {
  IndexOpStats total;
  loaded.cluster->Run([&](rdma::Client& client) {
    if (client.location().thread != 0 || client.location().coroutine != 0) return;
    IndexOpStats stats;
    for (uint64_t i = 0; i < kPrewarmKeys; ++i) {
      const uint64_t key = 1 + i * kStride;
      uint64_t value = 0;
      ASSERT_TRUE(loaded.tree->Lookup(client, key, &value, stats)) << key;
      ASSERT_EQ(value, key);
    }
    total += stats;
  });
  return total;
}

TreeOptions Prewarmed(bool prewarm) {
  TreeOptions options = TreeOptions::Sherman();
  options.cache_prewarm = prewarm;
  return options;
}

TEST(CachePrewarm, CachesStartWithTheNodesLookupsWouldCache) {
  Loaded cold = Bulkloaded(Prewarmed(false));
  Loaded warm = Bulkloaded(Prewarmed(true));
  for (uint32_t server = 0; server < kPrewarmMachines; ++server) {
    EXPECT_EQ(cold.tree->cache_stats(server).entries, 0u) << server;
    EXPECT_GT(warm.tree->cache_stats(server).entries, 1u) << server;
  }
  // Reading every key fills the cold caches with every level-1 node: the
  // same count and bytes the prewarmed ones started with.
  const IndexOpStats cold_stats = LookUpEveryKey(cold);
  EXPECT_GT(cold_stats.cache_misses, 0u);
  const IndexOpStats warm_stats = LookUpEveryKey(warm);
  EXPECT_EQ(warm_stats.cache_misses, 0u);
  EXPECT_EQ(warm_stats.cache_hits, kPrewarmMachines * kPrewarmKeys);
  for (uint32_t server = 0; server < kPrewarmMachines; ++server) {
    const IndexCacheStats filled = cold.tree->cache_stats(server);
    const IndexCacheStats prewarmed = warm.tree->cache_stats(server);
    EXPECT_EQ(prewarmed.entries, filled.entries) << server;
    EXPECT_EQ(prewarmed.bytes, filled.bytes) << server;
    EXPECT_EQ(prewarmed.invalidations, 0u) << server;
    EXPECT_EQ(prewarmed.evictions, 0u) << server;
  }
}

// With a warm cache the first lookup reads its leaf and nothing above it.
TEST(CachePrewarm, AFirstLookupReadsOnlyItsLeaf) {
  for (const bool prewarm : {false, true}) {
    Loaded loaded = Bulkloaded(Prewarmed(prewarm));
    loaded.cluster->Run([&](rdma::Client& client) {
      if (client.location().index != 0) return;
      IndexOpStats stats;
      uint64_t value = 0;
      EXPECT_TRUE(loaded.tree->Lookup(client, 1 + kStride * 40, &value, stats));
    });
    if (prewarm) {
      EXPECT_EQ(test_support::TouchedNodes(*loaded.cluster), 1u);
    } else {
      EXPECT_GT(test_support::TouchedNodes(*loaded.cluster), 1u);
    }
  }
}

// A cache too small for every level-1 node keeps those of the lowest keys,
// up to its capacity, without evicting any.
TEST(CachePrewarm, ASmallCacheKeepsTheLowestNodesWithoutEvicting) {
  TreeOptions options = Prewarmed(true);
  const Loaded full = Bulkloaded(options);
  const IndexCacheStats all = full.tree->cache_stats(0);
  ASSERT_GT(all.entries, 3u);
  options.cache_bytes = 2 * all.bytes / all.entries + all.bytes / all.entries / 2;
  Loaded small = Bulkloaded(options);
  for (uint32_t server = 0; server < kPrewarmMachines; ++server) {
    const IndexCacheStats stats = small.tree->cache_stats(server);
    EXPECT_EQ(stats.entries, 2u) << server;
    EXPECT_LE(stats.bytes, options.cache_bytes) << server;
    EXPECT_EQ(stats.evictions, 0u) << server;
  }
  small.cluster->Run([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    IndexOpStats stats;
    uint64_t value = 0;
    EXPECT_TRUE(small.tree->Lookup(client, 1, &value, stats));
    EXPECT_EQ(stats.cache_hits, 1u);
    EXPECT_TRUE(small.tree->Lookup(client, 1 + (kPrewarmKeys - 1) * kStride, &value, stats));
    EXPECT_EQ(stats.cache_misses, 1u);
  });
}

}  // namespace
}  // namespace dmbench::indexes
