// The cpu benchmark's document and the cache contents it measures on. Its
// figures are wall-clock times of this machine, so nothing here checks how
// fast anything runs: only that every component was measured and that the
// document is self-consistent.
#include "harness/micro/cpu_cost_benchmark.h"
#include "harness/micro/skiplist_cache_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "indexes/blink/node_format.h"

namespace dmbench::micro {
namespace {

CpuCostBenchmarkConfig TinyConfig() {
  CpuCostBenchmarkConfig config;
  config.batches = 3;
  config.crc_nodes_per_batch = 20;
  config.lookups_per_batch = 50;
  config.operations_per_batch = 50;
  config.resumptions_per_batch = 50;
  config.keys = 100'000;
  return config;
}

TEST(CpuCostBenchmark, DocumentHasFiveMeasuredComponents) {
  std::ostringstream table;
  const nlohmann::json result = RunCpuCostBenchmark(TinyConfig(), table);
  EXPECT_EQ(result.at("benchmark"), "cpu");
  EXPECT_FALSE(result.at("cpu_model").get<std::string>().empty());
  EXPECT_EQ(result.at("batches"), 3);
  const nlohmann::json& points = result.at("points");
  ASSERT_EQ(points.size(), 5u);
  const std::vector<std::string> components = {"crc32c_per_byte", "index_cache_lookup",
                                               "paper_index_cache_lookup", "key_generation",
                                               "coroutine_switch"};
  // Our own cache's lookup is shown beside the paper's structure, which is
  // what the profile prices.
  const std::vector<std::string> parameters = {"cpu_crc_ns_per_byte", "",
                                               "cpu_index_cache_lookup_ns", "cpu_key_generation_ns",
                                               "cpu_coroutine_switch_ns"};
  for (size_t i = 0; i < points.size(); ++i) {
    const nlohmann::json& point = points[i];
    EXPECT_EQ(point.at("component"), components[i]);
    EXPECT_EQ(point.at("profile_parameter"), parameters[i]);
    const double ns = point.at("ns");
    EXPECT_TRUE(std::isfinite(ns)) << components[i];
    EXPECT_GT(ns, 0) << components[i];
    // The median lies between the fastest and the slowest batch.
    EXPECT_LE(point.at("min_ns").get<double>(), ns) << components[i];
    EXPECT_GE(point.at("max_ns").get<double>(), ns) << components[i];
    EXPECT_NE(table.str().find(components[i]), std::string::npos) << components[i];
  }
  EXPECT_NE(table.str().find("CPU cost of our client-side code"), std::string::npos);
  EXPECT_NE(table.str().find(result.at("cpu_model").get<std::string>()), std::string::npos);

  const nlohmann::json& crc = points[0];
  EXPECT_EQ(crc.at("node_bytes"), 1024);
  EXPECT_DOUBLE_EQ(crc.at("ns_per_kib").get<double>(), crc.at("ns").get<double>() * 1024);

  // Every lookup found its leaf in either cache: the figures are those of a
  // hit, over the same nodes.
  const nlohmann::json& cache = points[1];
  const nlohmann::json& paper_cache = points[2];
  EXPECT_GT(cache.at("cached_nodes").get<uint64_t>(), 1u);
  EXPECT_EQ(paper_cache.at("cached_nodes"), cache.at("cached_nodes"));
  EXPECT_DOUBLE_EQ(cache.at("hit_fraction").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(paper_cache.at("hit_fraction").get<double>(), 1.0);

  EXPECT_EQ(points[3].at("mix"), "write-intensive");
  EXPECT_DOUBLE_EQ(points[3].at("theta").get<double>(), 0.99);
  EXPECT_EQ(points[3].at("keys"), 100'000);

  const nlohmann::json& coroutine = points[4];
  EXPECT_DOUBLE_EQ(coroutine.at("ns_one_direction").get<double>(),
                   coroutine.at("ns").get<double>() / 2);
}

TEST(CpuCostBenchmark, RejectsEmptyBatches) {
  CpuCostBenchmarkConfig config = TinyConfig();
  config.batches = 0;
  std::ostringstream table;
  EXPECT_THROW(RunCpuCostBenchmark(config, table), std::invalid_argument);
}

// The level-1 nodes tile the whole key range without gaps, in key order,
// each as full as the bulkload fills internal nodes, and route every key of
// the space through the cache to a distinct leaf per slot.
TEST(BulkloadedLevelOneNodes, TileTheKeySpaceLikeABulkloadedTree) {
  const indexes::TreeOptions tree = indexes::TreeOptions::Sherman();
  const indexes::NodeFormat format(tree);
  const uint64_t keys = 50'000;
  const std::vector<indexes::CachedInternalNode> nodes =
      BulkloadedLevelOneNodes(keys, 0.8, tree, 0.8, 8);
  ASSERT_GT(nodes.size(), 2u);
  EXPECT_EQ(nodes.front().low_fence, 0u);
  EXPECT_EQ(nodes.back().high_fence, UINT64_MAX);
  const auto per_internal = static_cast<size_t>(std::floor((format.internal_capacity() + 1) * 0.8));
  std::set<uint64_t> addresses;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i + 1 < nodes.size()) {
      EXPECT_EQ(nodes[i].high_fence, nodes[i + 1].low_fence) << i;
      EXPECT_EQ(nodes[i].children.size() + 1, per_internal) << i;
    }
    EXPECT_LE(nodes[i].children.size(), format.internal_capacity()) << i;
    addresses.insert(nodes[i].address.Pack());
    addresses.insert(nodes[i].leftmost_child.Pack());
    for (const auto& [separator, child] : nodes[i].children) addresses.insert(child.Pack());
  }
  // No two nodes (leaves or parents) share an address.
  size_t total = nodes.size();
  for (const auto& node : nodes) total += node.children.size() + 1;
  EXPECT_EQ(addresses.size(), total);

  indexes::IndexCache cache(tree.cache_bytes, tree.node_bytes, 1);
  for (const auto& node : nodes) cache.Insert(node);
  EXPECT_EQ(cache.stats().entries, nodes.size());
  std::set<uint64_t> leaves;
  for (uint64_t key = 1; key <= keys; ++key) {
    const auto route = cache.FindLeaf(key);
    ASSERT_TRUE(route.has_value()) << key;
    leaves.insert(route->leaf.Pack());
  }
  // Every leaf holds some key of the space: none is a gap between fences.
  EXPECT_EQ(leaves.size(), total - nodes.size());
}

// The paper-structure model finds, for every key, the leaf our cache finds:
// its timing is that of real lookups, not of a search that stops early.
TEST(SkiplistCacheModel, RoutesEveryKeyAsTheIndexCacheDoes) {
  const indexes::TreeOptions tree = indexes::TreeOptions::Sherman();
  const uint64_t keys = 60'000;
  const std::vector<indexes::CachedInternalNode> nodes =
      BulkloadedLevelOneNodes(keys, 0.8, tree, 0.8, 8);
  indexes::IndexCache cache(tree.cache_bytes, tree.node_bytes, 1);
  for (const auto& node : nodes) cache.Insert(node);
  SkiplistCacheModel model(nodes, tree.node_bytes, 7);
  EXPECT_EQ(model.entries(), nodes.size());
  for (uint64_t key = 0; key <= keys + 1; ++key) {
    const auto route = cache.FindLeaf(key);
    ASSERT_TRUE(route.has_value()) << key;
    ASSERT_EQ(model.FindLeaf(key), route->leaf.Pack()) << key;
  }
  EXPECT_EQ(model.FindLeaf(UINT64_MAX - 1), cache.FindLeaf(UINT64_MAX - 1)->leaf.Pack());
}

// A cache with a gap answers 0 inside it, as IndexCache answers a miss.
TEST(SkiplistCacheModel, AnswersZeroWhereNoEntryCovers) {
  const indexes::TreeOptions tree = indexes::TreeOptions::Sherman();
  std::vector<indexes::CachedInternalNode> nodes =
      BulkloadedLevelOneNodes(20'000, 0.8, tree, 0.8, 8);
  ASSERT_GT(nodes.size(), 3u);
  const uint64_t gap_low = nodes[1].low_fence;
  const uint64_t gap_high = nodes[1].high_fence;
  nodes.erase(nodes.begin() + 1);
  SkiplistCacheModel model(nodes, tree.node_bytes, 1);
  EXPECT_EQ(model.FindLeaf(gap_low), 0u);
  EXPECT_EQ(model.FindLeaf(gap_high - 1), 0u);
  EXPECT_NE(model.FindLeaf(gap_high), 0u);
  EXPECT_NE(model.FindLeaf(gap_low - 1), 0u);
}

TEST(SkiplistCacheModel, RejectsANodeLargerThanItsPage) {
  const indexes::TreeOptions tree = indexes::TreeOptions::Sherman();
  const std::vector<indexes::CachedInternalNode> nodes =
      BulkloadedLevelOneNodes(20'000, 0.8, tree, 0.8, 8);
  EXPECT_THROW(SkiplistCacheModel(nodes, 64, 1), std::invalid_argument);
}

TEST(BulkloadedLevelOneNodes, RejectsBadArguments) {
  const indexes::TreeOptions tree = indexes::TreeOptions::Sherman();
  EXPECT_THROW(BulkloadedLevelOneNodes(0, 0.8, tree, 0.8, 8), std::invalid_argument);
  EXPECT_THROW(BulkloadedLevelOneNodes(100, 0, tree, 0.8, 8), std::invalid_argument);
  EXPECT_THROW(BulkloadedLevelOneNodes(100, 0.8, tree, 1.5, 8), std::invalid_argument);
  EXPECT_THROW(BulkloadedLevelOneNodes(100, 0.8, tree, 0.8, 0), std::invalid_argument);
}

}  // namespace
}  // namespace dmbench::micro
