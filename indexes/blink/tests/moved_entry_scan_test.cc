// A range query over an unsorted leaf whose READ saw one key in two slots.
//
// Writing one entry leaves a node's versions alone, so a READ that overlaps a
// delete of a key and its re-insert into another slot passes the node check
// having seen both slots holding the key. Real threads produce this rarely
// (the local backend's checked workload did, about once in 300 runs under
// ThreadSanitizer). The simulated fabric serializes a memory server's DMA
// reads, so the writer's leaf READ between the two writes cannot fall inside
// a scan's READ, and no simulated run has shown it. These tests put the image
// such a READ sees into memory directly.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "indexes/blink/tests/tree_test_support.h"
#include "indexes/common/index_layout.h"

namespace dmbench::indexes {
namespace {

constexpr uint64_t kKeys = 8;  // keys 1..8, one leaf
constexpr uint64_t kMovedKey = 3;
constexpr uint64_t kCopyValue = 3003;

// Whether the tree's only node, a leaf, now holds kMovedKey in a second,
// empty slot too, with kCopyValue. Run by one client on an idle tree.
bool CopyKeyIntoAnEmptySlot(rdma::Client& client, const BLinkTree& tree) {
  const NodeFormat& format = tree.format();
  uint64_t root = 0;
  client.Read(rdma::GlobalAddress::Host(0, IndexLayout::kRootPointerOffset), &root, 8);
  const rdma::GlobalAddress leaf = rdma::GlobalAddress::Unpack(root);
  std::vector<uint8_t> bytes(format.node_bytes());
  client.Read(leaf, bytes.data(), format.node_bytes());
  NodeImage header;
  format.DecodeHeader(bytes.data(), &header);
  const NodeFormat::UnsortedLeafScan scan = format.ScanUnsortedLeaf(bytes.data(), kMovedKey);
  if (header.level != 0 || scan.holding == format.leaf_capacity() ||
      scan.first_empty == format.leaf_capacity()) {
    return false;
  }
  LeafSlot copy;
  format.DecodeSlot(bytes.data(), scan.first_empty, &copy);
  copy.key = kMovedKey;
  copy.value = kCopyValue;
  const auto [offset, length] = format.EncodeSlot(copy, scan.first_empty, bytes.data());
  client.Write(leaf + offset, bytes.data() + offset, length);
  return true;
}

class MovedEntryScan : public ::testing::TestWithParam<Consistency> {};

std::string SchemeName(const ::testing::TestParamInfo<Consistency>& info) {
  std::string name = ConsistencyName(info.param);
  std::erase(name, '_');
  return name;
}

TEST_P(MovedEntryScan, ReturnsTheKeyOnceWithOneOfItsValues) {
  TreeOptions options = TreeOptions::Sherman();
  options.consistency = GetParam();
  ASSERT_TRUE(NodeFormat(options).entry_writes());
  test_support::TreeFixture fixture = test_support::MakeFixture(options, 1, 1, 1, 1);
  test_support::Bulkload(fixture, kKeys, 1, 0.8, nullptr);
  fixture.cluster->Run([&](rdma::Client& client) {
    ASSERT_TRUE(CopyKeyIntoAnEmptySlot(client, *fixture.tree)) << "the tree is not one leaf";
    IndexOpStats stats;
    uint64_t value = 0;
    // A lookup takes the first slot holding the key: its bulkloaded one.
    ASSERT_TRUE(fixture.tree->Lookup(client, kMovedKey, &value, stats));
    EXPECT_EQ(value, kMovedKey);
    std::vector<KeyValue> range;
    fixture.tree->RangeQuery(client, 1, kKeys + 1, 0, &range, stats);
    ASSERT_EQ(range.size(), kKeys);
    for (uint64_t i = 0; i < kKeys; ++i) {
      const uint64_t key = i + 1;
      EXPECT_EQ(range[i].first, key);
      if (key == kMovedKey) {
        EXPECT_TRUE(range[i].second == key || range[i].second == kCopyValue) << range[i].second;
      } else {
        EXPECT_EQ(range[i].second, key);
      }
    }
  });
}

// The schemes whose unsorted leaves take single-entry writes.
INSTANTIATE_TEST_SUITE_P(UnsortedLeaves, MovedEntryScan,
                         ::testing::Values(Consistency::kTwoLevel, Consistency::kCacheline),
                         SchemeName);

}  // namespace
}  // namespace dmbench::indexes
