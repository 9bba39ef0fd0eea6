// Where node locks live (TreeOptions::lock_placement): FG+ keeps the lock
// word in the node header as FG does, Sherman in a global lock table apart
// from the nodes. The in-node word is outside every consistency check, is
// zero in every new node, and only the lock's own verbs touch it.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"
#include "indexes/blink/tests/tree_test_support.h"
#include "indexes/common/global_lock_table.h"
#include "indexes/common/index_layout.h"
#include "indexes/index_factory.h"

namespace dmbench::indexes {
namespace {

TEST(LockPlacement, PresetsPutFgPlusLocksInNodesAndShermansInTheTable) {
  EXPECT_EQ(TreeOptions::FgPlus().lock_placement, LockPlacement::kNode);
  EXPECT_EQ(TreeOptions::Sherman().lock_placement, LockPlacement::kTable);
}

TEST(LockPlacement, FgPlusLockIsTheNodesHeaderWord) {
  const rdma::GlobalAddress node = rdma::GlobalAddress::Host(3, 5 << 20);
  const GlobalLockTable fgplus(TreeOptions::FgPlus().locks());
  const GlobalLockTable::Lock lock = fgplus.For(node);
  EXPECT_EQ(lock.word, node);
  EXPECT_EQ(lock.release, node);
  EXPECT_EQ(lock.release_bytes, 8u);
  EXPECT_NE(fgplus.For(node + 1024).id, lock.id);
  // In the table, the lock is elsewhere: on-chip for Sherman, and in the
  // host lock table for Sherman with on-chip memory off.
  const GlobalLockTable sherman(TreeOptions::Sherman().locks());
  EXPECT_EQ(sherman.For(node).word.space, rdma::MemorySpace::kOnChip);
  TreeOptions host_table = TreeOptions::FgPlus();
  host_table.lock_placement = LockPlacement::kTable;
  const GlobalLockTable::Lock table_lock = GlobalLockTable(host_table.locks()).For(node);
  EXPECT_EQ(table_lock.word.server, node.server);
  EXPECT_NE(table_lock.word, node);
}

// The lock word changes under a reader while the node does not: no check
// may cover it. Every other byte still counts.
TEST(LockPlacement, ChecksIgnoreTheInNodeLockWord) {
  for (Consistency scheme :
       {Consistency::kCrc, Consistency::kNodeVersions, Consistency::kTwoLevel}) {
    TreeOptions options = TreeOptions::FgPlus();
    options.consistency = scheme;
    const NodeFormat format(options);
    ASSERT_EQ(format.lock_bytes(), 8u);
    NodeImage leaf;
    leaf.version = 5;
    leaf.low_fence = 10;
    leaf.high_fence = 500;
    if (format.unsorted_leaves()) leaf.slots.resize(format.leaf_capacity());
    for (uint32_t i = 0; i < 4; ++i) {
      if (!format.unsorted_leaves()) leaf.slots.push_back({});
      leaf.slots[i] = LeafSlot{20 + i, 900 + i};
    }
    std::vector<uint8_t> bytes(format.node_bytes());
    format.Encode(leaf, bytes.data());
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(bytes[i], 0) << "a new node's lock is free";
    const uint64_t tag = 0x0000'0007'0000'0001;
    std::memcpy(bytes.data(), &tag, 8);
    ASSERT_TRUE(format.NodeConsistent(bytes.data())) << ConsistencyName(scheme);
    NodeImage decoded;
    format.Decode(bytes.data(), &decoded);
    if (scheme != Consistency::kCrc) {
      EXPECT_EQ(decoded.version, 5);  // crc nodes carry no version
    }
    EXPECT_EQ(decoded.high_fence, 500u);
    LeafSlot slot;
    EXPECT_GE(format.FindLeafSlot(bytes.data(), 22, &slot), 0);
    EXPECT_EQ(slot.value, 902u);
    if (scheme == Consistency::kCrc) {
      for (uint32_t at = 8; at < format.node_bytes() - 4; ++at) {
        std::vector<uint8_t> changed = bytes;
        changed[at] ^= 0x10;
        EXPECT_FALSE(format.NodeConsistent(changed.data())) << "byte " << at;
      }
    } else {
      bytes[8] ^= 0x1;  // the front node version follows the lock word
      EXPECT_FALSE(format.NodeConsistent(bytes.data())) << ConsistencyName(scheme);
    }
  }
}

TEST(LockPlacement, InNodeLocksAreFreeAfterBulkloadAndAfterWrites) {
  test_support::TreeFixture fixture = test_support::MakeFixture(TreeOptions::FgPlus(), 2, 1, 1, 3);
  test_support::Bulkload(fixture, 400, 7, 0.8, nullptr);
  fixture.cluster->Run([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    IndexOpStats stats;
    for (uint64_t key = 2; key < 3000; key += 5) fixture.tree->Upsert(client, key, key, stats);
    EXPECT_GT(stats.splits, 0u);
    // Walk the leaf level from the leftmost leaf: every lock word is 0.
    std::vector<uint8_t> bytes(fixture.tree->format().node_bytes());
    uint64_t root = 0;
    client.Read(rdma::GlobalAddress::Host(0, IndexLayout::kRootPointerOffset), &root, 8);
    rdma::GlobalAddress node = rdma::GlobalAddress::Unpack(root);
    NodeImage image;
    for (;;) {  // down the leftmost path
      client.Read(node, bytes.data(), fixture.tree->format().node_bytes());
      fixture.tree->format().Decode(bytes.data(), &image);
      if (image.level == 0) break;
      node = image.leftmost;
    }
    uint32_t leaves = 0;
    while (!node.IsNull()) {
      client.Read(node, bytes.data(), fixture.tree->format().node_bytes());
      uint64_t lock = 1;
      std::memcpy(&lock, bytes.data(), 8);
      EXPECT_EQ(lock, 0u) << "leaf " << node.ToString();
      fixture.tree->format().Decode(bytes.data(), &image);
      node = image.sibling;
      ++leaves;
    }
    EXPECT_GT(leaves, 10u);
  });
}

TEST(LockPlacement, ContradictoryCombinationsAreConfigErrorsNamingBothFields) {
  test_support::TreeFixture fixture = test_support::MakeFixture(TreeOptions::FgPlus(), 1, 1, 1, 1);
  const rdma::ClusterShape shape = fixture.cluster->shape();
  auto message_of = [&](const TreeOptions& options) {
    return test_support::ConfigErrorOf(options, shape);
  };
  TreeOptions options = TreeOptions::FgPlus();
  options.on_chip = true;
  std::string message = message_of(options);
  EXPECT_NE(message.find("index.lock_placement"), std::string::npos) << message;
  EXPECT_NE(message.find("index.onchip"), std::string::npos) << message;
  options.lock_placement = LockPlacement::kTable;
  EXPECT_EQ(message_of(options), "accepted");
  options = TreeOptions::Sherman();
  options.on_chip = false;
  options.lock_placement = LockPlacement::kNode;
  EXPECT_EQ(message_of(options), "accepted");
  options.consistency = Consistency::kCacheline;
  message = message_of(options);
  EXPECT_NE(message.find("index.lock_placement"), std::string::npos) << message;
  EXPECT_NE(message.find("cacheline"), std::string::npos) << message;
}

TEST(LockPlacement, ReadFromTheConfigWithErrorsNamingTheFieldAndValues) {
  TreeOptions options = TreeOptions::FgPlus();
  const nlohmann::json table = {{"lock_placement", "table"}, {"onchip", true}};
  JsonObjectReader reader(table, "index");
  options.ReadJson(reader);
  EXPECT_EQ(options.lock_placement, LockPlacement::kTable);
  EXPECT_TRUE(options.on_chip);
  const nlohmann::json bad = {{"lock_placement", "nic"}};
  JsonObjectReader bad_reader(bad, "index");
  try {
    options.ReadJson(bad_reader);
    ADD_FAILURE() << "accepted lock_placement 'nic'";
  } catch (const ConfigError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("index.lock_placement"), std::string::npos) << message;
    EXPECT_NE(message.find("node"), std::string::npos) << message;
    EXPECT_NE(message.find("table"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace dmbench::indexes
