// IndexCache::LookupHints: a FindLeaf or Prefetch given the notes of an
// earlier Prefetch answers, counts and marks recency exactly as one without
// them, however the cache changed in between, and a note is never taken for
// another key, another cache, or a cache changed since.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "harness/rdma/global_address.h"
#include "harness/util/random.h"
#include "indexes/blink/index_cache.h"
#include "indexes/blink/tests/index_cache_test_support.h"

namespace dmbench::indexes {
namespace {

using test_support::kNodeBytes;
using test_support::LeafAt;
using test_support::MakeNode;

// A node of fanout up to 40 somewhere in [0, key_space + 4000).
CachedInternalNode RandomNode(Random& random, uint64_t key_space) {
  const uint64_t low = random.Uniform(key_space);
  const uint64_t high = low + 2 + random.Uniform(3000);
  std::set<uint64_t> separators;
  const uint64_t fanout = random.Uniform(40);
  for (uint64_t s = 0; s < fanout; ++s) separators.insert(low + 1 + random.Uniform(high - low - 1));
  return MakeNode(random.Uniform(3000), low, high, {separators.begin(), separators.end()},
                  random.Uniform(1 << 20));
}

// Two caches fed the same nodes; one looks up as the driver does (the next
// key prefetched at distance 1 and the one after it at distance 2 before
// the current one is looked up), with notes, and the other without. Between
// a prefetch and the lookup or prefetch that uses its note the cache may
// take a node (evicting another), lose one, or neither. The small cache
// holds one chunk of entries; the large one several, which split and vanish
// as it churns.
void ExpectHintedLookupsAnswerAsUnhintedOnes(uint64_t capacity_nodes, uint64_t key_space) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    IndexCache hinted(capacity_nodes * kNodeBytes, kNodeBytes, seed);
    IndexCache plain(capacity_nodes * kNodeBytes, kNodeBytes, seed);
    IndexCache::LookupHints hints;
    Random random(seed);
    std::vector<CachedInternalNode> inserted;
    for (uint64_t i = 0; i < capacity_nodes; ++i) {
      inserted.push_back(RandomNode(random, key_space));
      hinted.Insert(inserted.back());
      plain.Insert(inserted.back());
    }
    const auto draw = [&](uint64_t previous) {
      return random.Uniform(4) == 0 ? previous : random.Uniform(key_space + 4000);
    };
    uint64_t next_key = random.Uniform(key_space + 4000);
    uint64_t after_next = draw(next_key);
    uint64_t reused_hits = 0;
    for (int step = 0; step < 20000; ++step) {
      const uint64_t key = next_key;
      next_key = after_next;
      after_next = draw(next_key);
      hinted.Prefetch(next_key, 1, &hints);
      hinted.Prefetch(after_next, 2, &hints);
      plain.Prefetch(next_key, 1);
      const uint64_t change = random.Uniform(8);
      if (change == 0) {
        const CachedInternalNode node = RandomNode(random, key_space);
        inserted.push_back(node);
        hinted.Insert(node);
        plain.Insert(node);
      } else if (change == 1) {
        const rdma::GlobalAddress via = inserted[random.Uniform(inserted.size())].address;
        hinted.Invalidate(via);
        plain.Invalidate(via);
      }
      const std::optional<CacheRoute> with = hinted.FindLeaf(key, &hints);
      const std::optional<CacheRoute> without = plain.FindLeaf(key);
      ASSERT_EQ(with.has_value(), without.has_value()) << "seed " << seed << ", step " << step;
      if (with) {
        ASSERT_EQ(with->leaf, without->leaf) << "seed " << seed << ", step " << step;
        ASSERT_EQ(with->via, without->via) << "seed " << seed << ", step " << step;
        reused_hits += change >= 2 ? 1 : 0;
      }
    }
    const IndexCacheStats a = hinted.stats();
    const IndexCacheStats b = plain.stats();
    EXPECT_EQ(a.hits, b.hits);
    EXPECT_EQ(a.misses, b.misses);
    EXPECT_EQ(a.evictions, b.evictions);
    EXPECT_EQ(a.entries, b.entries);
    EXPECT_GT(a.evictions, 100u);  // the cache churned
    // Full enough to hold several chunks of FenceOrderedSpans::kChunkSpans.
    EXPECT_GE(a.entries, capacity_nodes / 2);
    EXPECT_GT(reused_hits, 1000u);  // and notes were there to use
  }
}

TEST(IndexCacheHintsTest, HintedLookupsAnswerAsUnhintedOnesWhileTheCacheChanges) {
  ExpectHintedLookupsAnswerAsUnhintedOnes(24, 100000);
}

TEST(IndexCacheHintsTest, HintedLookupsAnswerAsUnhintedOnesOverManyChunks) {
  ExpectHintedLookupsAnswerAsUnhintedOnes(400, 4000000);
}

// A chunk noted at distance 2 is no longer where the note says once the
// chunks before it are gone: the prefetch at distance 1 must search again.
TEST(IndexCacheHintsTest, AChunkNoteTakenBeforeTheCacheChangedIsNotUsed) {
  IndexCache cache(300 * kNodeBytes, kNodeBytes, 1);
  for (uint64_t i = 0; i < 200; ++i) {
    cache.Insert(MakeNode(i, i * 100, i * 100 + 100, {i * 100 + 50}, 10 * i));
  }
  IndexCache::LookupHints hints;
  cache.Prefetch(15060, 2, &hints);  // node 150, its second leaf
  for (uint64_t i = 0; i < 120; ++i) cache.Invalidate(test_support::NodeAt(i));
  cache.Prefetch(15060, 1, &hints);
  const auto route = cache.FindLeaf(15060, &hints);
  ASSERT_TRUE(route.has_value());
  EXPECT_EQ(route->leaf, LeafAt(1501));
  // Noted again after the change, the chunk note holds, for its key only.
  cache.Prefetch(19920, 2, &hints);
  cache.Prefetch(19920, 1, &hints);
  EXPECT_EQ(cache.FindLeaf(19920, &hints)->leaf, LeafAt(1990));
  cache.Prefetch(13010, 1, &hints);
  EXPECT_EQ(cache.FindLeaf(13010, &hints)->leaf, LeafAt(1300));
}

TEST(IndexCacheHintsTest, ANoteTakenBeforeTheCacheChangedIsNotUsed) {
  // A's span is found and noted; A is then dropped, and B's span moves to
  // where A's was. The note must not route key 50 through B.
  IndexCache cache(4 * kNodeBytes, kNodeBytes, 1);
  cache.Insert(MakeNode(1, 0, 100, {50}, 10));
  cache.Insert(MakeNode(2, 100, 200, {150}, 20));
  IndexCache::LookupHints hints;
  cache.Prefetch(50, 1, &hints);
  cache.Invalidate(test_support::NodeAt(1));
  EXPECT_FALSE(cache.FindLeaf(50, &hints).has_value());
  // Noted again after the change, the note holds.
  cache.Prefetch(150, 1, &hints);
  const auto route = cache.FindLeaf(150, &hints);
  ASSERT_TRUE(route.has_value());
  EXPECT_EQ(route->leaf, LeafAt(21));
}

TEST(IndexCacheHintsTest, ANoteIsForItsKeyAndItsCacheOnly) {
  IndexCache first(4 * kNodeBytes, kNodeBytes, 1);
  IndexCache second(4 * kNodeBytes, kNodeBytes, 1);
  first.Insert(MakeNode(1, 0, 100, {50}, 10));
  second.Insert(MakeNode(1, 0, 100, {50}, 30));  // same fences, other leaves
  IndexCache::LookupHints hints;
  first.Prefetch(60, 1, &hints);
  // The same key in the other cache, whose structure has the same version.
  const auto other = second.FindLeaf(60, &hints);
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->leaf, LeafAt(31));
  // Another key of the same span: searched, not taken from the note.
  const auto below = first.FindLeaf(10, &hints);
  ASSERT_TRUE(below.has_value());
  EXPECT_EQ(below->leaf, LeafAt(10));
  // A key noted as covered by nothing stays a miss.
  first.Prefetch(5000, 1, &hints);
  EXPECT_FALSE(first.FindLeaf(5000, &hints).has_value());
  EXPECT_EQ(first.stats().misses, 1u);
}

}  // namespace
}  // namespace dmbench::indexes
