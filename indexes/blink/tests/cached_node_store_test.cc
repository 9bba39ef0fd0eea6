// The store of cached nodes that caches share (cached_node_store.h) and
// the routes it keeps of each node: one copy of identical nodes, each cache
// still charged and evicting on its own.
#include "indexes/blink/cached_node_store.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "harness/rdma/global_address.h"
#include "indexes/blink/index_cache.h"
#include "indexes/blink/tests/index_cache_test_support.h"

namespace dmbench::indexes {
namespace {

using rdma::GlobalAddress;
using test_support::ExpectedLeaf;
using test_support::kNodeBytes;
using test_support::LeafAt;
using test_support::MakeNode;
using test_support::NodeAt;

// Routes live in one allocation, arrays after the header: each array must
// come back whole, for a node with no separators as for a wide one.
TEST(CachedRoutesTest, CreateLaysOutTheNodesRoutesInOneBlock) {
  for (size_t separators : {size_t{0}, size_t{1}, size_t{61}}) {
    std::vector<uint64_t> keys;
    for (size_t i = 0; i < separators; ++i) keys.push_back(1000 + 10 * i);
    const CachedInternalNode node = MakeNode(3, 900, 2000, keys, 40);
    const CachedRoutes* routes = CachedRoutes::Create(node);
    EXPECT_EQ(routes->address, node.address);
    EXPECT_EQ(routes->low_fence, 900u);
    EXPECT_EQ(routes->high_fence, 2000u);
    ASSERT_EQ(routes->separator_count(), separators);
    ASSERT_EQ(routes->branches().size(), separators);
    ASSERT_EQ(routes->child_count(), separators + 1);
    EXPECT_EQ(routes->child(0), node.leftmost_child);
    for (size_t i = 0; i < separators; ++i) {
      EXPECT_EQ(routes->separator(i), node.children[i].first);
      EXPECT_EQ(routes->branches()[i].separator, node.children[i].first);
      EXPECT_EQ(routes->child(i + 1), node.children[i].second);
    }
    CachedRoutes::Destroy(routes);
  }
}

// Children are kept packed, so the store takes host addresses only, and a
// cache does not take a node with another child (tree nodes never have one).
TEST(CachedRoutesTest, ChildrenOutsideHostMemoryAreRefused) {
  CachedInternalNode node = MakeNode(3, 900, 2000, {1000, 1100}, 40);
  node.children[1].second = GlobalAddress::OnChip(0, 64);
  EXPECT_THROW(CachedRoutes::Create(node), std::invalid_argument);
  IndexCache cache(1 << 20, kNodeBytes, 1);
  cache.Insert(node);
  EXPECT_FALSE(cache.FindLeaf(1050).has_value());
  node.children[1].second = LeafAt(41);
  cache.Insert(node);
  EXPECT_EQ(cache.FindLeaf(1150)->leaf, LeafAt(41));
}

// Caches that share a store hold one copy of identical nodes, and still
// decide alone: each charges the node's full size and evicts on its own.
TEST(IndexCacheSharingTest, IdenticalCopiesAreStoredOnceAndCachesStayIndependent) {
  auto store = std::make_shared<CachedNodeStore>();
  IndexCache first(1 << 20, kNodeBytes, 1, store);
  IndexCache second(1 << 20, kNodeBytes, 2, store);
  const CachedInternalNode node = MakeNode(7, 100, 400, {200, 300}, 10);
  first.Insert(node);
  second.Insert(node);
  EXPECT_EQ(store->distinct_nodes(), 1u);
  EXPECT_EQ(first.stats().bytes, kNodeBytes);
  EXPECT_EQ(second.stats().bytes, kNodeBytes);
  for (uint64_t key : {100u, 250u, 399u}) {
    EXPECT_EQ(first.FindLeaf(key)->leaf, ExpectedLeaf(node, key)) << key;
    EXPECT_EQ(second.FindLeaf(key)->leaf, ExpectedLeaf(node, key)) << key;
  }

  // A split copy fetched by one cache is a new node; the other keeps the old.
  first.Insert(MakeNode(7, 100, 250, {200}, 10));
  EXPECT_EQ(store->distinct_nodes(), 2u);
  EXPECT_FALSE(first.FindLeaf(300).has_value());
  EXPECT_EQ(second.FindLeaf(300)->leaf, LeafAt(12));

  second.Invalidate(NodeAt(7));
  EXPECT_EQ(store->distinct_nodes(), 1u);
  first.Invalidate(NodeAt(7));
  EXPECT_EQ(store->distinct_nodes(), 0u);
}

// Interning finds an identical node whether it was interned last (the
// one-entry memo), earlier (the table) or not at all since its last holder
// let go (a new copy).
TEST(CachedNodeStoreTest, InternReturnsTheLiveCopyOfIdenticalContent) {
  CachedNodeStore store;
  const CachedInternalNode a = MakeNode(7, 100, 400, {200, 300}, 10);
  const CachedInternalNode b = MakeNode(8, 400, 900, {500}, 20);
  const std::shared_ptr<const CachedRoutes> a1 = store.Intern(a);
  EXPECT_EQ(store.Intern(a), a1);  // the last one interned
  std::shared_ptr<const CachedRoutes> b1 = store.Intern(b);
  EXPECT_NE(b1, a1);
  EXPECT_EQ(store.Intern(a), a1);  // an earlier one
  EXPECT_EQ(store.Intern(b), b1);
  EXPECT_EQ(store.distinct_nodes(), 2u);

  // Same address and fences, another child: other content, another copy.
  CachedInternalNode changed = a;
  changed.children.back().second = LeafAt(99);
  const std::shared_ptr<const CachedRoutes> changed1 = store.Intern(changed);
  EXPECT_NE(changed1, a1);
  EXPECT_EQ(changed1->child(changed1->child_count() - 1), LeafAt(99));
  EXPECT_EQ(store.distinct_nodes(), 3u);

  // Once every holder of b let go, even as the last one interned, interning
  // it again builds a new copy.
  std::shared_ptr<const CachedRoutes> b_holder = store.Intern(b);
  b1.reset();
  b_holder.reset();
  EXPECT_EQ(store.distinct_nodes(), 2u);
  const std::shared_ptr<const CachedRoutes> b2 = store.Intern(b);
  EXPECT_EQ(b2->child(b2->child_count() - 1), b.children.back().second);
  EXPECT_EQ(store.distinct_nodes(), 3u);
}

// Nodes whose hashes collide share a chain: each is still found, a holder's
// letting go unlinks exactly its node wherever it sits in the chain, and the
// freed entries are reused.
TEST(CachedNodeStoreTest, NodesOfOneHashAreToldApartAndForgottenOneByOne) {
  CachedNodeStore store([](const CachedInternalNode&) { return uint64_t{42}; });
  std::vector<CachedInternalNode> nodes;
  std::vector<std::shared_ptr<const CachedRoutes>> held;
  for (uint64_t i = 0; i < 5; ++i) {
    nodes.push_back(MakeNode(10 + i, 1000 * i, 1000 * i + 500, {1000 * i + 250}, 20 * i));
    held.push_back(store.Intern(nodes.back()));
  }
  EXPECT_EQ(store.distinct_nodes(), 5u);
  // Every node, first and last of the chain included, is found again.
  for (size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_EQ(store.Intern(nodes[i]), held[i]) << i;
  }
  // Drop the middle, the newest (the chain's head) and the oldest (its tail).
  for (size_t gone : {2u, 4u, 0u}) {
    held[gone].reset();
  }
  EXPECT_EQ(store.distinct_nodes(), 2u);
  EXPECT_EQ(store.Intern(nodes[1]), held[1]);
  EXPECT_EQ(store.Intern(nodes[3]), held[3]);
  // A node whose holders all let go comes back as a new copy, in a freed entry.
  const std::shared_ptr<const CachedRoutes> again = store.Intern(nodes[2]);
  EXPECT_EQ(again->address, nodes[2].address);
  EXPECT_EQ(store.distinct_nodes(), 3u);
  held[1].reset();
  held[3].reset();
  EXPECT_EQ(store.distinct_nodes(), 1u);
  EXPECT_EQ(store.Intern(nodes[2]), again);
}

}  // namespace
}  // namespace dmbench::indexes
