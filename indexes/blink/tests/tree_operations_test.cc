// Single-client behaviour of the tree: bulkload shape, point operations,
// range queries with limits, and bad input.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "harness/rdma/errors.h"
#include "harness/util/random.h"
#include "indexes/blink/tests/tree_test_support.h"
#include "indexes/index_factory.h"

namespace dmbench::indexes {
namespace {

TreeOptions Small(Consistency scheme) {
  TreeOptions options = TreeOptions::Sherman();
  options.consistency = scheme;
  options.node_bytes = 256;
  return options;
}

// Random single-client operations against a std::map, in every scheme.
TEST(TreeOperations, MatchesAnOrderedMapInEveryScheme) {
  for (Consistency scheme : test_support::kAllSchemes) {
    test_support::TreeFixture fixture = test_support::MakeFixture(Small(scheme), 2, 1, 1, 11);
    test_support::Bulkload(fixture, 50, 3, 0.8, nullptr);
    std::map<uint64_t, uint64_t> model;
    for (uint64_t i = 0; i < 50; ++i) model[1 + 3 * i] = 1 + 3 * i;
    fixture.cluster->Run([&](rdma::Client& client) {
      if (client.location().index != 0) return;
      BLinkTree& tree = *fixture.tree;
      Random random(5);
      IndexOpStats stats;
      for (int op = 0; op < 3000; ++op) {
        const uint64_t key = 1 + random.Uniform(400);
        const uint64_t dice = random.Uniform(10);
        if (dice < 5) {
          tree.Upsert(client, key, op, stats);
          model[key] = op;
        } else if (dice < 7) {
          EXPECT_EQ(tree.Delete(client, key, stats), model.erase(key) == 1);
        } else if (dice < 9) {
          uint64_t value = 0;
          const bool found = tree.Lookup(client, key, &value, stats);
          ASSERT_EQ(found, model.count(key) == 1) << ConsistencyName(scheme) << " key " << key;
          if (found) {
            EXPECT_EQ(value, model[key]);
          }
        } else {
          std::vector<KeyValue> range;
          const size_t limit = random.Uniform(3) == 0 ? 0 : 1 + random.Uniform(20);
          tree.RangeQuery(client, key, key + 60, limit, &range, stats);
          std::vector<KeyValue> expected;
          for (auto at = model.lower_bound(key); at != model.end() && at->first < key + 60; ++at) {
            if (limit != 0 && expected.size() == limit) break;
            expected.emplace_back(at->first, at->second);
          }
          ASSERT_EQ(range, expected) << ConsistencyName(scheme);
        }
      }
      EXPECT_GT(stats.splits, 10u) << "the test should grow the tree";
    });
  }
}

TEST(TreeOperations, RangeQueryAcrossTheWholeTree) {
  test_support::TreeFixture fixture =
      test_support::MakeFixture(Small(Consistency::kTwoLevel), 2, 1, 1, 1);
  test_support::Bulkload(fixture, 2000, 2, 0.8, nullptr);
  fixture.cluster->Run([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    std::vector<KeyValue> all;
    IndexOpStats stats;
    fixture.tree->RangeQuery(client, kMinUserKey, kInfinity, 0, &all, stats);
    ASSERT_EQ(all.size(), 2000u);
    for (uint64_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].first, 1 + 2 * i);
  });
}

TEST(TreeOperations, EmptyTreeGrowsFromOneLeaf) {
  test_support::TreeFixture fixture =
      test_support::MakeFixture(Small(Consistency::kCrc), 2, 1, 1, 1);
  test_support::Bulkload(fixture, 0, 1, 0.8, nullptr);
  fixture.cluster->Run([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    IndexOpStats stats;
    uint64_t value = 0;
    EXPECT_FALSE(fixture.tree->Lookup(client, 5, &value, stats));
    for (uint64_t key = 1000; key >= 1; --key) fixture.tree->Upsert(client, key, key * 2, stats);
    for (uint64_t key = 1; key <= 1000; ++key) {
      ASSERT_TRUE(fixture.tree->Lookup(client, key, &value, stats));
      EXPECT_EQ(value, key * 2);
    }
    EXPECT_GT(stats.splits, 100u);
  });
}

// A leaf that split after another compute server cached its parent: a write
// routed there moves right once and drops the stale entry, as a lookup does,
// so the next write of a key that moved goes straight to its leaf (it used
// to move right on every write until the entry was evicted).
TEST(TreeOperations, AWriteThatMovesRightDropsTheStaleCacheEntry) {
  for (const TreeOptions& preset : {TreeOptions::FgPlus(), TreeOptions::Sherman()}) {
    TreeOptions options = preset;
    options.node_bytes = 256;
    test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, 1, 1, 3);
    // Four levels: the leaves' parents are not among the top two levels,
    // which are cached apart.
    test_support::Bulkload(fixture, 4000, 7, 0.8, nullptr);
    // The keys between kBulkloadedKey and the bulkloaded keys after it.
    std::vector<uint64_t> moved;
    for (uint64_t key = test_support::kBulkloadedKey; moved.size() < 60; ++key) {
      if ((key - 1) % 7 != 0) moved.push_back(key);
    }
    IndexOpStats splitting;
    IndexOpStats first_pass;
    IndexOpStats second_pass;
    auto on = [&](uint32_t client_index, auto&& work) {
      fixture.cluster->Run([&](rdma::Client& client) {
        if (client.location().index == client_index) work(client);
      });
    };
    uint32_t levels = 0;
    on(0, [&](rdma::Client& client) { levels = fixture.tree->Height(client); });
    ASSERT_GE(levels, 4u);
    uint64_t value = 0;
    on(0, [&](rdma::Client& client) {
      IndexOpStats warm;
      fixture.tree->Lookup(client, test_support::kBulkloadedKey, &value, warm);
    });
    on(1, [&](rdma::Client& client) {
      for (const uint64_t key : moved) fixture.tree->Upsert(client, key, key, splitting);
    });
    ASSERT_GT(splitting.splits, 0u) << "client 1's inserts split no leaf";
    on(0, [&](rdma::Client& client) {
      for (const uint64_t key : moved) fixture.tree->Upsert(client, key, key + 1, first_pass);
      for (const uint64_t key : moved) fixture.tree->Upsert(client, key, key + 2, second_pass);
    });
    EXPECT_GT(first_pass.sibling_chases, 0u) << "the cached parent was not stale";
    EXPECT_EQ(second_pass.sibling_chases, 0u);
    EXPECT_EQ(second_pass.wrong_turns, 0u);
    on(0, [&](rdma::Client& client) {
      IndexOpStats read;
      for (const uint64_t key : moved) {
        ASSERT_TRUE(fixture.tree->Lookup(client, key, &value, read));
        EXPECT_EQ(value, key + 2);
      }
    });
  }
}

TEST(TreeOperations, BadKeysAndOptionsAreRejected) {
  test_support::TreeFixture fixture =
      test_support::MakeFixture(Small(Consistency::kCrc), 1, 1, 1, 1);
  test_support::Bulkload(fixture, 10, 1, 0.8, nullptr);
  EXPECT_THROW(fixture.cluster->Run([&](rdma::Client& client) {
    IndexOpStats stats;
    fixture.tree->Upsert(client, 0, 1, stats);
  }),
               std::invalid_argument);
  EXPECT_THROW(fixture.cluster->Run([&](rdma::Client& client) {
    std::vector<KeyValue> unsorted = {{5, 1}, {3, 1}};
    fixture.tree->Bulkload(client, unsorted, 0.8);
  }),
               std::invalid_argument);

  const rdma::ClusterShape shape = fixture.cluster->shape();
  auto message_of = [&](const TreeOptions& options) {
    return test_support::ConfigErrorOf(options, shape);
  };
  TreeOptions options = TreeOptions::Sherman();
  options.hierarchical = false;
  EXPECT_NE(message_of(options).find("index.handover"), std::string::npos);
  options = TreeOptions::Sherman();
  options.node_bytes = 1000;
  EXPECT_NE(message_of(options).find("index.node_bytes"), std::string::npos);
  options = TreeOptions::Sherman();
  options.key_bytes = 1024;
  EXPECT_NE(message_of(options).find("raise node_bytes"), std::string::npos);
  rdma::ClusterShape no_masked = shape;
  no_masked.masked_compare_and_swap = false;
  options = TreeOptions::Sherman();
  options.masked_locks = true;
  EXPECT_THROW(MakeBLinkTree(options, no_masked, 1), ConfigError);
  rdma::ClusterShape no_on_chip = shape;
  no_on_chip.on_chip_memory_bytes = 0;
  EXPECT_THROW(MakeBLinkTree(TreeOptions::Sherman(), no_on_chip, 1), ConfigError);
  EXPECT_NO_THROW(MakeBLinkTree(TreeOptions::FgPlus(), no_on_chip, 1));
}

}  // namespace
}  // namespace dmbench::indexes
