// A bulkloaded leaf built on first touch (BulkloadImage::Fill) must be the
// bytes Encode writes for the same leaf built slot by slot, whichever way
// Fill writes it (straight from the source into the slots, or through an
// array of entries), and a source that no longer matches the tree's shape
// must be refused, not written past the leaf.
#include "indexes/blink/bulkload_image.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "indexes/blink/tests/tree_test_support.h"

namespace dmbench::indexes {
namespace {

// Keys 5, 9, 13, ...: enough for three full leaves and part of a fourth.
std::vector<KeyValue> Entries(uint64_t per_leaf) {
  std::vector<KeyValue> entries;
  for (uint64_t i = 0; i < per_leaf * 3 + per_leaf / 2; ++i) {
    entries.emplace_back(5 + 4 * i, 1000 + 7 * i);
  }
  return entries;
}

// The image of a two-level tree over `entries`, shaped as BLinkTree's
// bulkload shapes it: `per_leaf` entries a leaf, one root above them.
// `source` may differ from `entries`, as a source that changed would.
std::shared_ptr<BulkloadImage> Image(const NodeFormat& format, const std::vector<KeyValue>& entries,
                                     uint64_t per_leaf, std::vector<KeyValue> source) {
  std::vector<BulkloadImage::Level> levels(2);
  for (uint64_t i = 0; i < entries.size(); i += per_leaf) {
    levels[0].in_key_order.push_back(
        {i == 0 ? 0 : entries[i].first, rdma::GlobalAddress::Host(1, (i + 1) << 10).Pack()});
  }
  levels[1].in_key_order.push_back({0, rdma::GlobalAddress::Host(0, 1 << 20).Pack()});
  const uint64_t per_internal = levels[0].nodes();
  return std::make_shared<BulkloadImage>(format, std::make_shared<SortedEntries>(std::move(source)),
                                         std::move(levels), per_leaf, per_internal);
}

TEST(BulkloadImage, EveryLeafIsTheEncodedLeafInEveryScheme) {
  for (Consistency scheme : test_support::kAllSchemes) {
    for (const auto& [key_bytes, value_bytes] : {std::tuple{8u, 8u}, std::tuple{16u, 24u}}) {
      TreeOptions options = TreeOptions::Sherman();
      options.consistency = scheme;
      options.key_bytes = key_bytes;
      options.value_bytes = value_bytes;
      const NodeFormat format(options);
      const uint64_t per_leaf = format.leaf_capacity() * 4 / 5;
      const std::vector<KeyValue> entries = Entries(per_leaf);
      const auto image = Image(format, entries, per_leaf, entries);
      for (uint64_t leaf = 0; leaf < image->nodes(0); ++leaf) {
        NodeImage expected_leaf;
        expected_leaf.low_fence = leaf == 0 ? 0 : entries[leaf * per_leaf].first;
        const bool last = leaf + 1 == image->nodes(0);
        expected_leaf.high_fence = last ? kInfinity : entries[(leaf + 1) * per_leaf].first;
        expected_leaf.sibling =
            last ? rdma::GlobalAddress::Null() : image->NodeAddress(0, leaf + 1);
        for (uint64_t i = leaf * per_leaf; i < entries.size() && i < (leaf + 1) * per_leaf; ++i) {
          expected_leaf.slots.push_back({entries[i].first, entries[i].second});
        }
        if (format.unsorted_leaves()) expected_leaf.slots.resize(format.leaf_capacity());
        std::vector<uint8_t> expected(format.node_bytes());
        format.Encode(expected_leaf, expected.data());
        // Garbage first: every byte must be written.
        std::vector<uint8_t> built(format.node_bytes(), 0xA5);
        image->Fill(leaf, built);
        EXPECT_EQ(built, expected) << ConsistencyName(scheme) << ", " << key_bytes << "/"
                                   << value_bytes << "-byte keys/values, leaf " << leaf;
      }
    }
  }
}

// A key gone from leaf 1's range, or one more in it, is a source that
// changed under the tree; the leaves around it still build.
TEST(BulkloadImage, ALeafWhoseSourceChangedIsRefused) {
  for (const bool packed : {true, false}) {
    TreeOptions options = TreeOptions::Sherman();
    if (!packed) options.value_bytes = 16;
    const NodeFormat format(options);
    ASSERT_EQ(format.packed_fresh_leaves(), packed);
    const uint64_t per_leaf = format.leaf_capacity();  // full: no room for one more
    const std::vector<KeyValue> entries = Entries(per_leaf);
    std::vector<KeyValue> fewer = entries;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(per_leaf + 3));
    std::vector<KeyValue> more = entries;
    more.insert(more.begin() + static_cast<std::ptrdiff_t>(per_leaf + 3),
                {entries[per_leaf + 3].first - 1, 1});
    for (const auto& source : {fewer, more}) {
      const auto image = Image(format, entries, per_leaf, source);
      std::vector<uint8_t> built(format.node_bytes());
      EXPECT_NO_THROW(image->Fill(0, built));
      EXPECT_THROW(image->Fill(1, built), std::logic_error)
          << (packed ? "packed" : "padded") << ", " << source.size() << " entries";
      EXPECT_NO_THROW(image->Fill(2, built));
    }
  }
}

}  // namespace
}  // namespace dmbench::indexes
