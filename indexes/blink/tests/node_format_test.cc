// Encoding and checking nodes in each consistency scheme.
#include "indexes/blink/node_format.h"

#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <random>
#include <tuple>
#include <vector>

#include "harness/util/random.h"
#include "indexes/blink/tests/tree_test_support.h"
#include "indexes/common/crc32c.h"

namespace dmbench::indexes {
namespace {

TreeOptions WithScheme(Consistency consistency, uint32_t key_bytes = 8, uint32_t value_bytes = 8) {
  TreeOptions options = TreeOptions::Sherman();
  options.consistency = consistency;
  options.key_bytes = key_bytes;
  options.value_bytes = value_bytes;
  return options;
}

NodeImage SampleLeaf(const NodeFormat& format) {
  NodeImage leaf;
  leaf.version = 3;
  leaf.low_fence = 100;
  leaf.high_fence = 900;
  leaf.sibling = rdma::GlobalAddress::Host(1, 1 << 20);
  const uint32_t count = format.leaf_capacity() - 1;
  if (format.unsorted_leaves()) leaf.slots.resize(format.leaf_capacity());
  for (uint32_t i = 0; i < count; ++i) {
    // Unsorted leaves keep a hole at slot 1 to show positions survive.
    const uint32_t slot = format.unsorted_leaves() && i >= 1 ? i + 1 : i;
    if (!format.unsorted_leaves()) leaf.slots.push_back({});
    leaf.slots[slot] = LeafSlot{100 + i * 10, 7000 + i};
  }
  return leaf;
}

TEST(Crc32c, MatchesPublishedVectors) {
  // RFC 3720 appendix B.4 and the common check value.
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);
  std::vector<uint8_t> zeros(32, 0), ones(32, 0xFF);
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
  EXPECT_EQ(Crc32c(ones.data(), ones.size()), 0x62A8AB43u);
}

TEST(NodeFormat, LeafRoundTripsInEveryScheme) {
  for (Consistency scheme : test_support::kAllSchemes) {
    const NodeFormat format(WithScheme(scheme, 16, 24));
    const NodeImage leaf = SampleLeaf(format);
    std::vector<uint8_t> bytes(format.node_bytes());
    format.Encode(leaf, bytes.data());
    ASSERT_TRUE(format.NodeConsistent(bytes.data())) << ConsistencyName(scheme);
    NodeImage decoded;
    format.Decode(bytes.data(), &decoded);
    EXPECT_EQ(decoded.low_fence, 100u);
    EXPECT_EQ(decoded.high_fence, 900u);
    EXPECT_EQ(decoded.sibling, leaf.sibling);
    ASSERT_EQ(decoded.slots.size(), leaf.slots.size()) << ConsistencyName(scheme);
    for (size_t i = 0; i < leaf.slots.size(); ++i) {
      EXPECT_EQ(decoded.slots[i].key, leaf.slots[i].key);
      EXPECT_EQ(decoded.slots[i].value, leaf.slots[i].value);
      EXPECT_TRUE(format.SlotPayloadIntact(bytes.data(), static_cast<uint32_t>(i)));
    }
  }
}

// A bulkloaded leaf written without its slots must be the bytes Encode
// writes for the same leaf built slot by slot, as BLinkTree::EmptyLeaf and
// the bulkload build it: in every scheme, with lock words in the node, the
// paper's 8-byte keys and values and wide (padded) ones, and a leaf full,
// partly full or empty; and so must the same leaf whose entries a caller
// writes itself between BeginFreshLeaf and SealFreshLeaf, where the format
// allows it. (Cacheline versions leave no room for a lock word in the node.)
TEST(NodeFormat, FreshLeafIsTheEncodedLeaf) {
  int packed_cases = 0;
  for (Consistency scheme : test_support::kAllSchemes) {
    for (const auto& [lock_in_node, key_bytes, value_bytes] :
         {std::tuple{false, 8u, 8u}, std::tuple{true, 8u, 8u}, std::tuple{false, 16u, 24u},
          std::tuple{true, 16u, 24u}}) {
      if (lock_in_node && scheme == Consistency::kCacheline) continue;  // not a valid tree
      TreeOptions options = WithScheme(scheme, key_bytes, value_bytes);
      if (lock_in_node) options.lock_placement = LockPlacement::kNode;
      const NodeFormat format(options);
      for (const uint32_t count : {format.leaf_capacity(), format.leaf_capacity() / 2, 0u}) {
        NodeImage frame;
        frame.version = 5;
        frame.low_fence = 1000;
        frame.high_fence = 5000;
        frame.sibling = rdma::GlobalAddress::Host(2, 3 << 10);
        std::vector<KeyValue> entries;
        for (uint32_t i = 0; i < count; ++i) entries.emplace_back(1000 + 3 * i, 77 + i);
        NodeImage leaf = frame;
        if (format.unsorted_leaves()) leaf.slots.resize(format.leaf_capacity());
        if (!format.unsorted_leaves()) leaf.slots.resize(entries.size());
        for (size_t i = 0; i < entries.size(); ++i) {
          leaf.slots[i] = LeafSlot{entries[i].first, entries[i].second};
        }
        std::vector<uint8_t> expected(format.node_bytes());
        format.Encode(leaf, expected.data());
        // Garbage first: every byte must be written.
        std::vector<uint8_t> fresh(format.node_bytes(), 0xA5);
        format.EncodeFreshLeaf(frame, entries, fresh.data());
        EXPECT_EQ(fresh, expected)
            << ConsistencyName(scheme) << (lock_in_node ? ", lock in node" : "") << ", "
            << key_bytes << "/" << value_bytes << "-byte keys/values, " << count << " entries";
        // The same leaf with its entries written between BeginFreshLeaf and
        // SealFreshLeaf, as a bulkload source writes them.
        const bool packed = key_bytes == 8 && value_bytes == 8 && scheme != Consistency::kCacheline;
        ASSERT_EQ(format.packed_fresh_leaves(), packed) << ConsistencyName(scheme);
        if (!packed) continue;
        ++packed_cases;
        std::vector<uint8_t> direct(format.node_bytes(), 0xA5);
        const NodeFormat::PackedSlots slots = format.BeginFreshLeaf(frame, count, direct.data());
        for (uint32_t i = 0; i < count; ++i) {
          std::memcpy(slots.first + i * slots.stride, &entries[i].first, 8);
          std::memcpy(slots.first + i * slots.stride + 8, &entries[i].second, 8);
        }
        format.SealFreshLeaf(frame, direct.data());
        EXPECT_EQ(direct, expected)
            << ConsistencyName(scheme) << (lock_in_node ? ", lock in node" : "") << ", " << count
            << " entries written between begin and seal";
      }
    }
  }
  // Every scheme but cacheline, with and without a lock word, three counts.
  EXPECT_EQ(packed_cases, (static_cast<int>(std::size(test_support::kAllSchemes)) - 1) * 2 * 3);
}

TEST(NodeFormat, InternalRoundTripsAndRoutes) {
  for (Consistency scheme : test_support::kAllSchemes) {
    const NodeFormat format(WithScheme(scheme));
    NodeImage node;
    node.level = 2;
    node.low_fence = 10;
    node.high_fence = kInfinity;
    node.leftmost = rdma::GlobalAddress::Host(0, 4 << 20);
    for (uint64_t i = 1; i <= 5; ++i) {
      node.entries.push_back({10 + i * 100, rdma::GlobalAddress::Host(1, (4 + i) << 20)});
    }
    std::vector<uint8_t> bytes(format.node_bytes());
    format.Encode(node, bytes.data());
    NodeImage decoded;
    ASSERT_TRUE(format.NodeConsistent(bytes.data()));
    format.Decode(bytes.data(), &decoded);
    EXPECT_EQ(decoded.level, 2);
    ASSERT_EQ(decoded.entries.size(), 5u);
    EXPECT_EQ(decoded.ChildFor(10), node.leftmost);
    EXPECT_EQ(decoded.ChildFor(109), node.leftmost);
    EXPECT_EQ(decoded.ChildFor(110), node.entries[0].child);
    EXPECT_EQ(decoded.ChildFor(kInfinity - 1), node.entries[4].child);
  }
}

TEST(NodeFormat, InternalChildForReadsWhatDecodeRoutes) {
  std::mt19937_64 random(7);
  for (Consistency scheme : test_support::kAllSchemes) {
    for (uint32_t key_bytes : {8u, 16u}) {
      const NodeFormat format(WithScheme(scheme, key_bytes));
      std::vector<uint8_t> bytes(format.node_bytes());
      // From a node of the leftmost child alone to a full one.
      for (uint32_t count : {0u, 1u, 2u, 7u, format.internal_capacity()}) {
        NodeImage node;
        node.level = 2;
        node.low_fence = 1000;
        node.high_fence = 1000 + 1000 * (count + 1);
        node.leftmost = rdma::GlobalAddress::Host(0, 1 << 20);
        for (uint64_t i = 1; i <= count; ++i) {
          node.entries.push_back(
              {1000 + i * 1000, rdma::GlobalAddress::Host(i % 3, (i + 1) << 20)});
        }
        format.Encode(node, bytes.data());
        NodeImage decoded;
        format.Decode(bytes.data(), &decoded);
        std::vector<uint64_t> keys = {node.low_fence, node.high_fence - 1};
        for (const InternalEntry& entry : node.entries) {
          keys.insert(keys.end(), {entry.key - 1, entry.key, entry.key + 1});
        }
        for (int draw = 0; draw < 64; ++draw) {
          keys.push_back(node.low_fence + random() % (node.high_fence - node.low_fence));
        }
        for (uint64_t key : keys) {
          EXPECT_EQ(format.InternalChildFor(bytes.data(), key), decoded.ChildFor(key))
              << ConsistencyName(scheme) << " key_bytes " << key_bytes << " count " << count
              << " key " << key;
        }
      }
    }
  }
}

TEST(NodeFormat, CrcDetectsAnyChangedByte) {
  const NodeFormat format(WithScheme(Consistency::kCrc));
  std::vector<uint8_t> bytes(format.node_bytes());
  format.Encode(SampleLeaf(format), bytes.data());
  for (uint32_t at = 0; at < format.node_bytes() - 8; at += 37) {
    bytes[at] ^= 0x10;
    EXPECT_FALSE(format.NodeConsistent(bytes.data())) << "byte " << at;
    bytes[at] ^= 0x10;
  }
  EXPECT_TRUE(format.NodeConsistent(bytes.data()));
}

TEST(NodeFormat, NodeVersionsDetectAFrontRearMix) {
  for (Consistency scheme : {Consistency::kNodeVersions, Consistency::kTwoLevel}) {
    const NodeFormat format(WithScheme(scheme));
    std::vector<uint8_t> old_bytes(format.node_bytes()), new_bytes(format.node_bytes());
    NodeImage leaf = SampleLeaf(format);
    format.Encode(leaf, old_bytes.data());
    leaf.version = format.NextVersion(leaf.version);
    format.Encode(leaf, new_bytes.data());
    // A READ that saw the first cacheline new and the rest old.
    std::vector<uint8_t> torn = old_bytes;
    std::copy(new_bytes.begin(), new_bytes.begin() + 64, torn.begin());
    EXPECT_FALSE(format.NodeConsistent(torn.data()));
    EXPECT_EQ(format.NextVersion(15), 0);  // 4-bit versions wrap
  }
}

TEST(NodeFormat, CachelineVersionsDetectAnyLineFromAnotherWrite) {
  const NodeFormat format(WithScheme(Consistency::kCacheline));
  std::vector<uint8_t> old_bytes(format.node_bytes()), new_bytes(format.node_bytes());
  NodeImage leaf = SampleLeaf(format);
  format.Encode(leaf, old_bytes.data());
  leaf.version = format.NextVersion(leaf.version);
  format.Encode(leaf, new_bytes.data());
  for (uint32_t line = 0; line < format.node_bytes(); line += 64) {
    std::vector<uint8_t> torn = new_bytes;
    std::copy(old_bytes.begin() + line, old_bytes.begin() + line + 64, torn.begin() + line);
    EXPECT_FALSE(format.NodeConsistent(torn.data())) << "line " << line / 64;
  }
}

TEST(NodeFormat, CachelineEntriesNeverStraddleALineOrItsVersion) {
  for (uint32_t value_bytes : {8u, 24u, 47u}) {
    const NodeFormat format(WithScheme(Consistency::kCacheline, 8, value_bytes));
    ASSERT_TRUE(format.entry_writes());
    NodeImage leaf = SampleLeaf(format);
    std::vector<uint8_t> bytes(format.node_bytes());
    format.Encode(leaf, bytes.data());
    for (uint32_t slot = 0; slot < format.leaf_capacity(); ++slot) {
      const auto [offset, length] = format.EncodeSlot(leaf.slots[slot], slot, bytes.data());
      EXPECT_NE(offset % 64, 0u) << "an entry overwrites a line version";
      EXPECT_EQ(offset / 64, (offset + length - 1) / 64) << "slot " << slot << " straddles";
    }
  }
  // Entries wider than a line cannot be written alone.
  EXPECT_FALSE(NodeFormat(WithScheme(Consistency::kCacheline, 8, 100)).entry_writes());
}

// A write's scan of an unsorted leaf must find what scanning its decoded
// slots finds: the slot holding the key and the first empty one, in leaves
// with holes, full, and empty, for keys present and absent.
TEST(NodeFormat, UnsortedLeafScanFindsWhatTheDecodedSlotsHold) {
  for (const Consistency scheme : {Consistency::kTwoLevel, Consistency::kCacheline}) {
    for (const uint32_t key_bytes : {8u, 16u}) {
      const NodeFormat format(WithScheme(scheme, key_bytes, 8));
      ASSERT_TRUE(format.unsorted_leaves());
      const uint32_t capacity = format.leaf_capacity();
      Random random(key_bytes);
      for (const uint32_t every : {1u, 2u, 3u, capacity + 1}) {  // fill every k-th slot
        NodeImage leaf = SampleLeaf(format);
        for (uint32_t i = 0; i < capacity; ++i) {
          leaf.slots[i] = i % every == every - 1 ? LeafSlot{} : LeafSlot{1000 + 7 * i, i};
        }
        std::vector<uint8_t> bytes(format.node_bytes());
        format.Encode(leaf, bytes.data());
        std::vector<uint64_t> keys = {1, 999, 1000 + 7 * (capacity - 1), 5000000};
        for (int k = 0; k < 16; ++k) keys.push_back(1000 + 7 * random.Uniform(capacity));
        for (const uint64_t key : keys) {
          NodeFormat::UnsortedLeafScan expected{capacity, capacity};
          for (uint32_t i = 0; i < capacity; ++i) {
            if (leaf.slots[i].key == key) expected.holding = i;
            if (leaf.slots[i].key == kNullKey && expected.first_empty == capacity) {
              expected.first_empty = i;
            }
          }
          const NodeFormat::UnsortedLeafScan scan = format.ScanUnsortedLeaf(bytes.data(), key);
          EXPECT_EQ(scan.holding, expected.holding)
              << ConsistencyName(scheme) << ", every " << every << ", key " << key;
          EXPECT_EQ(scan.first_empty, expected.first_empty)
              << ConsistencyName(scheme) << ", every " << every << ", key " << key;
        }
      }
    }
  }
}

// A lookup's scan of an unsorted leaf finds the first slot holding its key,
// wherever that is (each position of a step of four and the slots after the
// last whole step), and -1 for a key no slot holds.
TEST(NodeFormat, FindLeafSlotFindsTheFirstSlotHoldingTheKey) {
  uint32_t slots_after_steps = 0;
  for (const Consistency scheme : {Consistency::kTwoLevel, Consistency::kCacheline}) {
    for (const uint32_t key_bytes : {8u, 16u}) {
      const NodeFormat format(WithScheme(scheme, key_bytes, 8));
      const uint32_t capacity = format.leaf_capacity();
      slots_after_steps += capacity % 4;
      for (uint32_t at = 0; at < capacity; ++at) {
        for (const uint32_t again : {at, capacity - 1}) {  // a second copy, later
          NodeImage leaf = SampleLeaf(format);
          for (uint32_t i = 0; i < capacity; ++i) leaf.slots[i] = LeafSlot{1000 + i, i};
          leaf.slots[at] = LeafSlot{7, 70};
          leaf.slots[again] = LeafSlot{7, 71};
          std::vector<uint8_t> bytes(format.node_bytes());
          format.Encode(leaf, bytes.data());
          LeafSlot slot;
          ASSERT_EQ(format.FindLeafSlot(bytes.data(), 7, &slot), static_cast<int>(at))
              << ConsistencyName(scheme) << ", " << key_bytes << "-byte keys, again " << again;
          EXPECT_EQ(slot.value, at == again ? 71u : 70u);
          EXPECT_EQ(format.FindLeafSlot(bytes.data(), 999, &slot), -1);
        }
      }
    }
  }
  EXPECT_GT(slots_after_steps, 0u);
}

TEST(NodeFormat, TwoLevelSlotWriteBumpsOnlyThatEntrysVersions) {
  const NodeFormat format(WithScheme(Consistency::kTwoLevel));
  NodeImage leaf = SampleLeaf(format);
  std::vector<uint8_t> bytes(format.node_bytes());
  format.Encode(leaf, bytes.data());
  leaf.slots[2].value = 99;
  const auto [offset, length] = format.EncodeSlot(leaf.slots[2], 2, bytes.data());
  EXPECT_EQ(length, 8u + 8u + 2u);
  NodeImage decoded;
  format.Decode(bytes.data(), &decoded);
  EXPECT_EQ(decoded.slots[2].value, 99u);
  EXPECT_EQ(decoded.slots[2].front_version, 1);
  EXPECT_EQ(decoded.slots[2].rear_version, 1);
  EXPECT_EQ(decoded.slots[3].front_version, 0);
  EXPECT_TRUE(format.NodeConsistent(bytes.data()));  // node versions untouched
  // A READ that caught the entry's front version but not its rear.
  bytes[offset + length - 1] = 0;
  format.Decode(bytes.data(), &decoded);
  EXPECT_FALSE(decoded.slots[2].consistent());
}

TEST(NodeFormat, WidePayloadMixIsVisible) {
  const NodeFormat format(WithScheme(Consistency::kTwoLevel, 8, 200));
  NodeImage leaf = SampleLeaf(format);
  std::vector<uint8_t> a(format.node_bytes()), b(format.node_bytes());
  format.Encode(leaf, a.data());
  leaf.slots[0].value = 123456;
  format.Encode(leaf, b.data());
  // Middle bytes of slot 0's value from the other write.
  std::vector<uint8_t> mixed = a;
  const auto [offset, length] = format.EncodeSlot(leaf.slots[0], 0, b.data());
  std::copy(b.begin() + offset + 64, b.begin() + offset + 128, mixed.begin() + offset + 64);
  EXPECT_TRUE(format.SlotPayloadIntact(a.data(), 0));
  EXPECT_FALSE(format.SlotPayloadIntact(mixed.data(), 0));
  (void)length;
}

TEST(NodeFormat, CapacitiesFollowSizes) {
  const NodeFormat two_level(WithScheme(Consistency::kTwoLevel));
  // 1 KiB node, 36-byte logical header, 18-byte entries, 8-byte trailer.
  EXPECT_EQ(two_level.leaf_capacity(), (1024u - 8 - 1 - 36) / 18);
  const NodeFormat crc(WithScheme(Consistency::kCrc));
  EXPECT_EQ(crc.leaf_capacity(), (1024u - 8 - 1 - 36) / 16);
  EXPECT_EQ(crc.internal_capacity(), (1024u - 8 - 1 - 36) / 16);
  const NodeFormat wide(WithScheme(Consistency::kTwoLevel, 1024, 8));
  EXPECT_LT(wide.leaf_capacity(), 2u);  // too small a node for 1 KiB keys
}

}  // namespace
}  // namespace dmbench::indexes
