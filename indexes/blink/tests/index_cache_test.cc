#include "indexes/blink/index_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "harness/rdma/global_address.h"
#include "harness/util/random.h"
#include "indexes/blink/tests/index_cache_test_support.h"

namespace dmbench::indexes {
namespace {

using rdma::GlobalAddress;
using test_support::ExpectedLeaf;
using test_support::kNodeBytes;
using test_support::LeafAt;
using test_support::MakeNode;
using test_support::NodeAt;

bool Cached(IndexCache& cache, const CachedInternalNode& node) {
  const auto route = cache.FindLeaf(node.low_fence);
  return route.has_value() && route->via == node.address;
}

TEST(IndexCacheTest, FindLeafRoutesAtBoundaries) {
  IndexCache cache(1 << 20, kNodeBytes, 1);
  cache.Insert(MakeNode(7, 100, 400, {200, 300}, 10));
  const std::vector<std::pair<uint64_t, uint64_t>> key_to_leaf = {
      {100, 10}, {199, 10}, {200, 11}, {201, 11}, {299, 11}, {300, 12}, {399, 12}};
  for (const auto& [key, leaf] : key_to_leaf) {
    const auto route = cache.FindLeaf(key);
    ASSERT_TRUE(route.has_value()) << key;
    EXPECT_EQ(route->leaf, LeafAt(leaf)) << key;
    EXPECT_EQ(route->via, NodeAt(7)) << key;
  }
  EXPECT_FALSE(cache.FindLeaf(99).has_value());
  EXPECT_FALSE(cache.FindLeaf(400).has_value());
  EXPECT_FALSE(cache.FindLeaf(0).has_value());
  const IndexCacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits, 7u);
  EXPECT_EQ(stats.misses, 3u);
  EXPECT_EQ(stats.entries, 1u);
  EXPECT_EQ(stats.bytes, kNodeBytes);
}

TEST(IndexCacheTest, OuterFencesAndLeftmostOnlyNode) {
  IndexCache cache(1 << 20, kNodeBytes, 1);
  cache.Insert(MakeNode(1, 0, 50, {}, 1));
  cache.Insert(MakeNode(2, 1000, UINT64_MAX, {5000}, 2));
  EXPECT_EQ(cache.FindLeaf(0)->leaf, LeafAt(1));
  EXPECT_EQ(cache.FindLeaf(49)->leaf, LeafAt(1));
  EXPECT_FALSE(cache.FindLeaf(50).has_value());
  EXPECT_EQ(cache.FindLeaf(UINT64_MAX - 1)->leaf, LeafAt(3));
  EXPECT_EQ(cache.FindLeaf(UINT64_MAX - 1)->via, NodeAt(2));
  EXPECT_FALSE(cache.FindLeaf(UINT64_MAX).has_value());
}

TEST(IndexCacheTest, FresherCopyAfterSplitReplacesStaleEntry) {
  IndexCache cache(1 << 20, kNodeBytes, 1);
  cache.Insert(MakeNode(1, 100, 400, {200, 300}, 10));
  // Node 1 split at 250: it keeps [100, 250), new node 2 takes [250, 400).
  cache.Insert(MakeNode(1, 100, 250, {200}, 10));
  EXPECT_FALSE(cache.FindLeaf(300).has_value()) << "stale copy of node 1 still routes";
  EXPECT_EQ(cache.FindLeaf(220)->leaf, LeafAt(11));
  EXPECT_EQ(cache.stats().entries, 1u);
  cache.Insert(MakeNode(2, 250, 400, {300}, 20));
  EXPECT_EQ(cache.FindLeaf(260)->via, NodeAt(2));
  EXPECT_EQ(cache.FindLeaf(300)->leaf, LeafAt(21));
  EXPECT_EQ(cache.stats().entries, 2u);
  EXPECT_EQ(cache.stats().bytes, 2 * kNodeBytes);
}

TEST(IndexCacheTest, InsertRemovesAllOverlappingEntries) {
  IndexCache cache(1 << 20, kNodeBytes, 1);
  for (uint64_t i = 0; i < 4; ++i) cache.Insert(MakeNode(i, 100 * i, 100 * (i + 1), {}, i));
  cache.Insert(MakeNode(9, 150, 300, {}, 9));  // overlaps nodes 1 and 2, touches 3
  EXPECT_EQ(cache.FindLeaf(50)->via, NodeAt(0));
  EXPECT_FALSE(cache.FindLeaf(120).has_value());
  EXPECT_EQ(cache.FindLeaf(150)->via, NodeAt(9));
  EXPECT_EQ(cache.FindLeaf(299)->via, NodeAt(9));
  EXPECT_EQ(cache.FindLeaf(300)->via, NodeAt(3));
  EXPECT_EQ(cache.stats().entries, 3u);
}

TEST(IndexCacheTest, ReusedAddressWithDisjointRangeReplacesOldEntry) {
  IndexCache cache(1 << 20, kNodeBytes, 1);
  cache.Insert(MakeNode(1, 0, 100, {}, 1));
  cache.Insert(MakeNode(1, 500, 600, {}, 2));
  EXPECT_FALSE(cache.FindLeaf(50).has_value());
  EXPECT_EQ(cache.FindLeaf(550)->leaf, LeafAt(2));
  EXPECT_EQ(cache.stats().entries, 1u);
}

TEST(IndexCacheTest, InvalidateRemovesExactlyThatNode) {
  IndexCache cache(1 << 20, kNodeBytes, 1);
  for (uint64_t i = 0; i < 3; ++i) cache.Insert(MakeNode(i, 100 * i, 100 * (i + 1), {}, i));
  cache.Invalidate(GlobalAddress::Host(3, NodeAt(1).offset));  // same offset, other server
  cache.Invalidate(NodeAt(5));
  EXPECT_EQ(cache.stats().entries, 3u);
  EXPECT_EQ(cache.stats().invalidations, 0u);
  cache.Invalidate(NodeAt(1));
  EXPECT_EQ(cache.FindLeaf(99)->via, NodeAt(0));
  EXPECT_FALSE(cache.FindLeaf(100).has_value());
  EXPECT_FALSE(cache.FindLeaf(199).has_value());
  EXPECT_EQ(cache.FindLeaf(200)->via, NodeAt(2));
  EXPECT_EQ(cache.stats().entries, 2u);
  EXPECT_EQ(cache.stats().invalidations, 1u);
  EXPECT_EQ(cache.stats().bytes, 2 * kNodeBytes);
}

TEST(IndexCacheTest, MalformedNodesAreNotCached) {
  IndexCache cache(1 << 20, kNodeBytes, 1);
  cache.Insert(MakeNode(1, 100, 100, {}, 1));          // empty range
  cache.Insert(MakeNode(2, 100, 200, {150, 150}, 1));  // repeated separator
  cache.Insert(MakeNode(3, 100, 200, {100}, 1));       // separator == low fence
  cache.Insert(MakeNode(4, 100, 200, {200}, 1));       // separator == high fence
  EXPECT_EQ(cache.stats().entries, 0u);
  EXPECT_EQ(cache.stats().insertions, 0u);
}

// A span counts its separators in 16 bits: the most it counts are cached
// and routed to their last child, one more is not cached.
TEST(IndexCacheTest, NodesOfMoreSeparatorsThanASpanCountsAreNotCached) {
  for (const uint64_t separators : {uint64_t{65'535}, uint64_t{65'536}}) {
    IndexCache cache(uint64_t{1} << 30, kNodeBytes, 1);
    std::vector<uint64_t> keys(separators);
    for (uint64_t i = 0; i < separators; ++i) keys[i] = 1'000 + i;
    cache.Insert(MakeNode(1, 0, 1'000'000, keys, 1));
    const auto route = cache.FindLeaf(999'999);
    if (separators == 65'535) {
      ASSERT_TRUE(route.has_value());
      EXPECT_EQ(route->leaf, LeafAt(1 + separators));
      EXPECT_EQ(route->via, NodeAt(1));
      EXPECT_EQ(cache.FindLeaf(5)->leaf, LeafAt(1));
    } else {
      EXPECT_FALSE(route.has_value());
      EXPECT_EQ(cache.stats().insertions, 0u);
    }
  }
}

TEST(IndexCacheTest, ZeroCapacityDisablesCache) {
  IndexCache cache(0, kNodeBytes, 1);
  cache.Insert(MakeNode(1, 0, 100, {}, 1));
  EXPECT_FALSE(cache.FindLeaf(10).has_value());
  EXPECT_TRUE(cache.FindLeaves(0, 100, 10).leaves.empty());
  EXPECT_EQ(cache.stats().entries, 0u);
  EXPECT_EQ(cache.stats().misses, 1u);
}

// Every node costs a whole node, as a page of Sherman's cache does, whatever
// its separators: a capacity below one node caches nothing, and a capacity
// of one node holds one, of any fan-out.
TEST(IndexCacheTest, EveryNodeCostsAWholeNode) {
  const CachedInternalNode narrow = MakeNode(1, 0, 100, {}, 1);
  const CachedInternalNode wide = MakeNode(2, 100, 200, {110, 120, 130, 140, 150}, 2);
  IndexCache too_small(kNodeBytes - 1, kNodeBytes, 1);
  too_small.Insert(narrow);
  EXPECT_FALSE(Cached(too_small, narrow));
  EXPECT_EQ(too_small.stats().bytes, 0u);

  IndexCache one(kNodeBytes, kNodeBytes, 1);
  one.Insert(narrow);
  EXPECT_TRUE(Cached(one, narrow));
  EXPECT_EQ(one.stats().bytes, kNodeBytes);
  one.Insert(wide);
  EXPECT_TRUE(Cached(one, wide));
  EXPECT_FALSE(Cached(one, narrow));
  EXPECT_EQ(one.stats().evictions, 1u);
  EXPECT_EQ(one.stats().bytes, kNodeBytes);

  IndexCache thousand(1000 * kNodeBytes + kNodeBytes - 1, kNodeBytes, 1);
  for (uint64_t id = 0; id < 1200; ++id) {
    thousand.Insert(MakeNode(id, 100 * id, 100 * id + 100, {100 * id + 50}, 2 * id));
  }
  EXPECT_EQ(thousand.stats().entries, 1000u);
  EXPECT_THROW(IndexCache(1 << 20, 0, 1), std::invalid_argument);
}

TEST(IndexCacheTest, BytesNeverExceedCapacityUnderRandomInsertions) {
  const uint64_t capacity = 16 * kNodeBytes;
  IndexCache cache(capacity, kNodeBytes, 42);
  Random random(7);
  std::map<GlobalAddress, CachedInternalNode> latest;
  for (int i = 0; i < 5000; ++i) {
    const uint64_t low = random.Uniform(100000);
    const uint64_t high = low + 2 + random.Uniform(3000);
    std::set<uint64_t> separators;
    const uint64_t fanout = random.Uniform(40);
    for (uint64_t s = 0; s < fanout; ++s)
      separators.insert(low + 1 + random.Uniform(high - low - 1));
    CachedInternalNode node =
        MakeNode(random.Uniform(300), low, high, {separators.begin(), separators.end()},
                 random.Uniform(1 << 20));
    latest[node.address] = node;
    cache.Insert(node);
    const IndexCacheStats stats = cache.stats();
    ASSERT_LE(stats.bytes, capacity);
    for (int probe = 0; probe < 4; ++probe) {
      const uint64_t key = random.Uniform(104000);
      const auto route = cache.FindLeaf(key);
      if (!route) continue;
      // A hit must come from the newest copy of its node (older ones were replaced).
      ASSERT_EQ(ExpectedLeaf(latest.at(route->via), key), route->leaf) << "key " << key;
    }
  }
  EXPECT_GT(cache.stats().evictions, 100u);
  EXPECT_GT(cache.stats().hits, 0u);
}

TEST(IndexCacheTest, FullCacheHoldsExactlyAsManyEqualNodesAsFit) {
  IndexCache cache(10 * kNodeBytes + kNodeBytes / 2, kNodeBytes, 3);
  for (uint64_t i = 0; i < 100; ++i)
    cache.Insert(MakeNode(i, 100 * i, 100 * i + 100, {100 * i + 50}, 2 * i));
  EXPECT_EQ(cache.stats().entries, 10u);
  EXPECT_EQ(cache.stats().bytes, 10 * kNodeBytes);
  EXPECT_EQ(cache.stats().evictions, 90u);
  EXPECT_EQ(cache.stats().insertions, 100u);
  EXPECT_TRUE(Cached(cache, MakeNode(99, 9900, 10000, {9950}, 198))) << "newest entry evicted";
}

// Which of `count` equal-sized, disjoint nodes are present after each
// insertion, with lookups in between so that recency varies.
std::vector<std::vector<bool>> EvictionTrace(uint64_t seed) {
  const uint64_t count = 60;
  IndexCache cache(8 * kNodeBytes, kNodeBytes, seed);
  Random workload(99);
  std::vector<std::vector<bool>> trace;
  for (uint64_t i = 0; i < count; ++i) {
    cache.Insert(MakeNode(i, 10 * i, 10 * i + 10, {}, i));
    for (int lookup = 0; lookup < 5; ++lookup) cache.FindLeaf(workload.Uniform(10 * (i + 1)));
    std::vector<bool> present;
    for (uint64_t j = 0; j <= i; ++j)
      present.push_back(Cached(cache, MakeNode(j, 10 * j, 10 * j + 10, {}, j)));
    trace.push_back(present);
  }
  return trace;
}

TEST(IndexCacheTest, EvictionSequenceIsReproducibleForASeed) {
  EXPECT_EQ(EvictionTrace(5), EvictionTrace(5));
  EXPECT_NE(EvictionTrace(5), EvictionTrace(6));
}

TEST(IndexCacheTest, PowerOfTwoChoicesEvictsTheLessRecentlyUsed) {
  const CachedInternalNode a = MakeNode(1, 0, 100, {}, 1);
  const CachedInternalNode b = MakeNode(2, 100, 200, {}, 2);
  const CachedInternalNode c = MakeNode(3, 200, 300, {}, 3);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    IndexCache untouched(2 * kNodeBytes, kNodeBytes, seed);
    untouched.Insert(a);
    untouched.Insert(b);
    untouched.Insert(c);
    EXPECT_FALSE(Cached(untouched, a)) << "seed " << seed;
    EXPECT_TRUE(Cached(untouched, b)) << "seed " << seed;

    IndexCache touched(2 * kNodeBytes, kNodeBytes, seed);
    touched.Insert(a);
    touched.Insert(b);
    touched.FindLeaf(50);
    touched.Insert(c);
    EXPECT_TRUE(Cached(touched, a)) << "seed " << seed;
    EXPECT_FALSE(Cached(touched, b)) << "seed " << seed;
    EXPECT_TRUE(Cached(touched, c)) << "seed " << seed;
  }
}

TEST(IndexCacheTest, PrefetchCountsNothingAndLeavesRecencyAlone) {
  // As PowerOfTwoChoicesEvictsTheLessRecentlyUsed's untouched cache, with a
  // Prefetch of a's keys (and of keys no node covers) where the touched one
  // looked a up: a must still be the one evicted. a and b have branches to
  // guess among.
  std::vector<uint64_t> separators;
  for (uint64_t separator = 5; separator < 100; separator += 5) separators.push_back(separator);
  const CachedInternalNode a = MakeNode(1, 0, 100, separators, 1);
  const CachedInternalNode b = MakeNode(2, 100, 200, {150, 170}, 2);
  const CachedInternalNode c = MakeNode(3, 200, 300, {}, 3);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    IndexCache cache(2 * kNodeBytes, kNodeBytes, seed);
    cache.Prefetch(50, 1);  // nothing cached yet
    cache.Prefetch(50, 2);
    cache.Insert(a);
    cache.Insert(b);
    for (uint64_t key : {0, 50, 99, 150, 5000}) {
      for (size_t distance : {1, 2, 3}) cache.Prefetch(key, distance);
    }
    const IndexCacheStats stats = cache.stats();
    EXPECT_EQ(stats.hits + stats.misses, 0u) << "seed " << seed;
    cache.Insert(c);
    EXPECT_FALSE(Cached(cache, a)) << "seed " << seed;
    EXPECT_TRUE(Cached(cache, b)) << "seed " << seed;
  }
}

TEST(IndexCacheTest, MostRecentlyUsedEntryIsNeverEvicted) {
  const CachedInternalNode hot = MakeNode(0, 0, 100, {}, 0);
  IndexCache cache(5 * kNodeBytes, kNodeBytes, 11);
  cache.Insert(hot);
  for (uint64_t i = 1; i < 500; ++i) {
    cache.FindLeaf(0);
    cache.Insert(MakeNode(i, 100 * i, 100 * i + 100, {}, i));
    ASSERT_TRUE(Cached(cache, hot)) << "after insertion " << i;
  }
}

TEST(IndexCacheTest, FindLeavesRefreshesRecency) {
  const CachedInternalNode a = MakeNode(1, 0, 100, {}, 1);
  IndexCache cache(2 * kNodeBytes, kNodeBytes, 1);
  cache.Insert(a);
  cache.Insert(MakeNode(2, 200, 300, {}, 2));
  EXPECT_EQ(cache.FindLeaves(0, 100, 4).leaves.size(), 1u);
  cache.Insert(MakeNode(3, 300, 400, {}, 3));
  EXPECT_TRUE(Cached(cache, a));
}

class FindLeavesTest : public ::testing::Test {
 protected:
  // Nodes cover [0, 100), [100, 200), [200, 300) contiguously, then a gap
  // until [400, +infinity).
  void SetUp() override {
    cache_.Insert(MakeNode(2, 200, 300, {}, 20));
    cache_.Insert(MakeNode(0, 0, 100, {50}, 0));
    cache_.Insert(MakeNode(1, 100, 200, {120, 150}, 10));
    cache_.Insert(MakeNode(4, 400, UINT64_MAX, {500}, 40));
  }
  static std::vector<GlobalAddress> Leaves(std::initializer_list<uint64_t> ids) {
    std::vector<GlobalAddress> leaves;
    for (uint64_t id : ids) leaves.push_back(LeafAt(id));
    return leaves;
  }
  IndexCache cache_{1 << 20, kNodeBytes, 1};
};

TEST_F(FindLeavesTest, CoversContiguousNodesInKeyOrder) {
  const IndexCache::LeafRange range = cache_.FindLeaves(10, 1000, 100);
  EXPECT_EQ(range.leaves, Leaves({0, 1, 10, 11, 12, 20}));
  EXPECT_EQ(range.covered_until, 300u);
}

TEST_F(FindLeavesTest, StopsAtGap) {
  EXPECT_EQ(cache_.FindLeaves(250, 1000, 100).covered_until, 300u);
  const IndexCache::LeafRange in_gap = cache_.FindLeaves(300, 1000, 100);
  EXPECT_TRUE(in_gap.leaves.empty());
  EXPECT_EQ(in_gap.covered_until, 300u);
  const IndexCache::LeafRange last = cache_.FindLeaves(450, UINT64_MAX, 100);
  EXPECT_EQ(last.leaves, Leaves({40, 41}));
  EXPECT_EQ(last.covered_until, UINT64_MAX);
}

TEST_F(FindLeavesTest, HonoursMaxLeavesAndTo) {
  const IndexCache::LeafRange two = cache_.FindLeaves(60, 1000, 2);
  EXPECT_EQ(two.leaves, Leaves({1, 10}));
  EXPECT_EQ(two.covered_until, 120u);
  EXPECT_EQ(cache_.FindLeaves(10, 50, 10).leaves, Leaves({0}));
  EXPECT_EQ(cache_.FindLeaves(10, 50, 10).covered_until, 50u);
  EXPECT_EQ(cache_.FindLeaves(10, 51, 10).leaves, Leaves({0, 1}));
  EXPECT_EQ(cache_.FindLeaves(10, 51, 10).covered_until, 100u);
  EXPECT_EQ(cache_.FindLeaves(120, 121, 10).leaves, Leaves({11}));
  EXPECT_TRUE(cache_.FindLeaves(10, 10, 10).leaves.empty());
  EXPECT_TRUE(cache_.FindLeaves(10, 1000, 0).leaves.empty());
  EXPECT_EQ(cache_.FindLeaves(10, 1000, 0).covered_until, 10u);
}

TEST(IndexCacheConcurrencyTest, ConcurrentOperationsKeepInvariants) {
  constexpr uint64_t kKeySpace = 1 << 20;
  constexpr int kThreads = 4;
  constexpr int kOpsPerThread = 100000;
  // Several generations of partitions of the key space; node ids repeat
  // across generations, so one address stands for several ranges.
  Random setup(2024);
  std::vector<CachedInternalNode> pool;
  std::multimap<GlobalAddress, const CachedInternalNode*> versions;
  uint64_t next_leaf = 0;
  for (int generation = 0; generation < 4; ++generation) {
    uint64_t low = 0;
    for (uint64_t id = 0; low < kKeySpace; ++id) {
      const uint64_t high = low + 1000 + setup.Uniform(20000);
      std::set<uint64_t> separators;
      const uint64_t fanout = setup.Uniform(32);
      for (uint64_t s = 0; s < fanout; ++s)
        separators.insert(low + 1 + setup.Uniform(high - low - 1));
      pool.push_back(MakeNode(id, low, high >= kKeySpace ? UINT64_MAX : high,
                              {separators.begin(), separators.end()}, next_leaf));
      next_leaf += separators.size() + 1;
      low = high;
    }
  }
  for (const CachedInternalNode& node : pool) versions.emplace(node.address, &node);

  const uint64_t capacity = 16 * kNodeBytes;
  IndexCache cache(capacity, kNodeBytes, 77);
  std::atomic<uint64_t> wrong_routes{0};
  std::atomic<uint64_t> over_capacity{0};
  std::atomic<uint64_t> lookups{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Random random(DeriveSeed(5, t));
      uint64_t local_lookups = 0;
      for (int op = 0; op < kOpsPerThread; ++op) {
        const uint64_t dice = random.Uniform(100);
        if (dice < 20) {
          cache.Insert(pool[random.Uniform(pool.size())]);
        } else if (dice < 23) {
          cache.Invalidate(pool[random.Uniform(pool.size())].address);
        } else {
          const uint64_t key = random.Uniform(kKeySpace);
          ++local_lookups;
          const auto route = cache.FindLeaf(key);
          if (!route) continue;
          bool explained = false;
          for (auto [it, end] = versions.equal_range(route->via); it != end && !explained; ++it) {
            explained = ExpectedLeaf(*it->second, key) == route->leaf;
          }
          if (!explained) wrong_routes.fetch_add(1);
        }
        if (op % 1024 == 0 && cache.stats().bytes > capacity) over_capacity.fetch_add(1);
      }
      lookups.fetch_add(local_lookups);
    });
  }
  for (std::thread& thread : threads) thread.join();

  const IndexCacheStats stats = cache.stats();
  EXPECT_EQ(wrong_routes.load(), 0u);
  EXPECT_EQ(over_capacity.load(), 0u);
  EXPECT_LE(stats.bytes, capacity);
  EXPECT_EQ(stats.hits + stats.misses, lookups.load());
  EXPECT_GT(stats.hits, 0u);
  EXPECT_GT(stats.evictions, 0u);
  EXPECT_GT(stats.invalidations, 0u);
  // Cached ranges never overlap: a full scan through the cache advances strictly.
  uint64_t previous = 0;
  for (uint64_t key = 0; key < kKeySpace; key += 97) {
    const IndexCache::LeafRange range = cache.FindLeaves(key, key + 1, 1);
    if (range.leaves.empty()) continue;
    EXPECT_GT(range.covered_until, key);
    EXPECT_GE(range.covered_until, previous);
    previous = range.covered_until;
  }
}

}  // namespace
}  // namespace dmbench::indexes
