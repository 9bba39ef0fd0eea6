// DeferredBlocks holds blocks as runs of evenly spaced ones. Whatever the
// layout (regular, with gaps, indices descending, listed out of order, or
// no pattern at all), every read must return the bytes an eager write of
// every block leaves, and zeros between blocks.
#include "harness/rdma/sim/deferred_blocks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

#include "harness/util/random.h"

namespace dmbench::rdma::sim {
namespace {

constexpr uint32_t kBlockBytes = 96;  // not a multiple of a 256-byte granule
constexpr uint64_t kRegionBytes = 64 << 10;

// Block i at the offset the layout gives it; every byte a function of
// (block, position).
class LaidOutContent final : public DeferredContent {
 public:
  explicit LaidOutContent(std::map<uint64_t, uint64_t> offsets, uint32_t block_bytes = kBlockBytes)
      : offsets_(std::move(offsets)), block_bytes_(block_bytes) {}
  uint64_t blocks() const override { return offsets_.size(); }
  uint32_t block_bytes() const override { return block_bytes_; }
  GlobalAddress address(uint64_t block) const override {
    return GlobalAddress::Host(0, offsets_.at(block));
  }
  void Fill(uint64_t block, std::span<uint8_t> out) const override {
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(block * 37 + i * 5 + 3);
  }
  void Prefetch(uint64_t block) const override { prefetched = block; }

  mutable uint64_t prefetched = ~uint64_t{0};  // the block of the last Prefetch

 private:
  std::map<uint64_t, uint64_t> offsets_;  // block -> region offset
  uint32_t block_bytes_;
};

// Block index -> region offset of a layout with every kind of run: blocks
// side by side with indices ascending by 3; then with 40-byte gaps and
// indices descending; then single blocks at irregular places.
std::map<uint64_t, uint64_t> MixedLayout() {
  std::map<uint64_t, uint64_t> offsets;
  for (uint64_t k = 0; k < 50; ++k) offsets[100 + 3 * k] = 1000 + k * kBlockBytes;
  for (uint64_t k = 0; k < 40; ++k) offsets[99 - k] = 9000 + k * (kBlockBytes + 40);
  const uint64_t singles[] = {20000, 20100, 20300, 21111, 30000, 30096, 40000};
  for (uint64_t k = 0; k < std::size(singles); ++k) offsets[500 + k * k] = singles[k];
  return offsets;
}

// The region as an eager write of every block leaves it.
std::vector<uint8_t> Eager(const LaidOutContent& content,
                           const std::map<uint64_t, uint64_t>& offsets) {
  std::vector<uint8_t> region(kRegionBytes, 0);
  for (const auto& [block, offset] : offsets) {
    content.Fill(block, std::span(region.data() + offset, kBlockBytes));
  }
  return region;
}

struct Deferred {
  PagedBytes memory{kRegionBytes};
  DeferredBlocks blocks{kRegionBytes};
};

std::vector<uint64_t> Indices(const std::map<uint64_t, uint64_t>& offsets) {
  std::vector<uint64_t> indices;
  for (const auto& entry : offsets) indices.push_back(entry.first);
  return indices;
}

// The mixed layout's blocks, all pending, and the region an eager write of
// them leaves.
struct PendingMixedLayout {
  PendingMixedLayout() { deferred.blocks.Add(content, Indices(offsets)); }

  const std::map<uint64_t, uint64_t> offsets = MixedLayout();
  const std::shared_ptr<LaidOutContent> content = std::make_shared<LaidOutContent>(offsets);
  const std::vector<uint8_t> expected = Eager(*content, offsets);
  Deferred deferred;
};

TEST(DeferredBlocks, EveryLayoutReadsAsAnEagerWrite) {
  const auto offsets = MixedLayout();
  const auto content = std::make_shared<LaidOutContent>(offsets);
  const std::vector<uint8_t> expected = Eager(*content, offsets);
  Random random(7);
  for (const bool shuffled : {false, true}) {
    Deferred deferred;
    std::vector<uint64_t> order = Indices(offsets);
    if (shuffled) {
      for (size_t i = order.size() - 1; i > 0; --i)
        std::swap(order[i], order[random.Uniform(i + 1)]);
    }
    deferred.blocks.Add(content, order);
    EXPECT_EQ(deferred.blocks.pending(), offsets.size());
    // The two evenly spaced runs, and the seven single blocks paired up
    // greedily in offset order (two blocks are always evenly spaced).
    EXPECT_EQ(deferred.blocks.runs(), 6u);
    // Reads of every length at random places, which read blocks through,
    // then build them, then read them from memory: blocks read through must
    // have been there beside unread ones, and later beside built ones.
    bool beside_unread = false;
    bool beside_built = false;
    for (int round = 0; round < 4000; ++round) {
      const uint64_t offset = random.Uniform(kRegionBytes - 1);
      const uint64_t length = 1 + random.Uniform(std::min<uint64_t>(700, kRegionBytes - offset));
      std::vector<uint8_t> out(length, 0xEE);
      deferred.blocks.Read(deferred.memory, offset, out.data(), length);
      ASSERT_TRUE(std::equal(out.begin(), out.end(), expected.begin() + offset))
          << "read [" << offset << ", +" << length << ")" << (shuffled ? ", listed shuffled" : "");
      if (deferred.blocks.read_through() > 0) {
        beside_unread = beside_unread || deferred.blocks.pending() > deferred.blocks.read_through();
        beside_built = beside_built || deferred.blocks.built() > 0;
      }
    }
    EXPECT_TRUE(beside_unread);
    EXPECT_TRUE(beside_built);
    deferred.blocks.MaterializeAll(deferred.memory);
    EXPECT_EQ(deferred.blocks.pending(), 0u);
    EXPECT_EQ(deferred.blocks.read_through(), 0u);
    std::vector<uint8_t> region(kRegionBytes);
    deferred.memory.Read(0, region.data(), kRegionBytes);
    EXPECT_EQ(region, expected);
  }
}

// A verb reads a node whole. The first kReadsThroughBeforeBuild whole reads
// build the block into the reader's buffer, the next into the region (in
// place when the block lies in one of the region's pages, through a scratch
// buffer when it straddles two), and later ones read the region: each must
// return the eager bytes over every byte of the buffer.
TEST(DeferredBlocks, WholeBlockReadsReadAsAnEagerWrite) {
  PendingMixedLayout layout;
  auto& [offsets, content, expected, deferred] = layout;
  bool straddles = false;
  bool in_one_page = false;
  for (const auto& [block, offset] : offsets) {
    const bool crosses =
        offset >> PagedBytes::kPageBits != (offset + kBlockBytes - 1) >> PagedBytes::kPageBits;
    straddles = straddles || crosses;
    in_one_page = in_one_page || !crosses;
  }
  ASSERT_TRUE(straddles && in_one_page);
  constexpr uint64_t kThrough = DeferredBlocks::kReadsThroughBeforeBuild;
  for (uint64_t pass = 1; pass <= kThrough + 2; ++pass) {
    for (const auto& [block, offset] : offsets) {
      std::vector<uint8_t> out(kBlockBytes, 0xEE);
      deferred.blocks.Read(deferred.memory, offset, out.data(), kBlockBytes);
      ASSERT_TRUE(std::equal(out.begin(), out.end(), expected.begin() + offset))
          << "block " << block << " at " << offset << ", read " << pass;
    }
    EXPECT_EQ(deferred.blocks.read_through(), pass <= kThrough ? offsets.size() : 0u);
    EXPECT_EQ(deferred.blocks.built(), pass <= kThrough ? 0u : offsets.size());
    EXPECT_EQ(deferred.blocks.pending(), pass <= kThrough ? offsets.size() : 0u);
  }
  std::vector<uint8_t> region(kRegionBytes);
  deferred.memory.Read(0, region.data(), kRegionBytes);
  EXPECT_EQ(region, expected);
}

TEST(DeferredBlocks, MaterializeBuildsExactlyTheBlocksItTouches) {
  const auto offsets = MixedLayout();
  const auto content = std::make_shared<LaidOutContent>(offsets);
  Deferred deferred;
  deferred.blocks.Add(content, Indices(offsets));
  // The last byte of the 2nd side-by-side block and the first of the 3rd.
  deferred.blocks.Materialize(deferred.memory, 1000 + 2 * kBlockBytes - 1, 2);
  EXPECT_EQ(deferred.blocks.built(), 2u);
  // A gap between two spaced blocks touches none.
  deferred.blocks.Materialize(deferred.memory, 9000 + kBlockBytes, 40);
  EXPECT_EQ(deferred.blocks.built(), 2u);
  // The gap and the next block: that block only.
  deferred.blocks.Materialize(deferred.memory, 9000 + kBlockBytes, 41);
  EXPECT_EQ(deferred.blocks.built(), 3u);
  std::vector<uint8_t> byte(1);
  deferred.memory.Read(9000 + kBlockBytes + 40, byte.data(), 1);
  std::vector<uint8_t> block(kBlockBytes);
  content->Fill(98, block);  // the second block of the descending run
  EXPECT_EQ(byte[0], block[0]);
}

// A node built by an access to part of it (an 8-byte atomic, one entry's
// write, a read of its header) leaves no granule of it marked pending, so
// every later access to it takes the fast path.
TEST(DeferredBlocks, ABlockBuiltFromPartOfItClearsAllItsGranules) {
  constexpr uint32_t kNodeBytes = 1024;  // four granules
  constexpr uint64_t kGranulesPerNode = 4;
  // Nodes 2 and 3 straddle five granules each, sharing one.
  constexpr uint64_t kNode3 = 2 * kNodeBytes + 100 + kNodeBytes;
  const std::map<uint64_t, uint64_t> offsets{
      {0, 0}, {1, kNodeBytes}, {2, 2 * kNodeBytes + 100}, {3, kNode3}};
  const auto content = std::make_shared<LaidOutContent>(offsets, kNodeBytes);
  Deferred deferred;
  deferred.blocks.Add(content, Indices(offsets));
  EXPECT_EQ(deferred.blocks.pending_granules(), 2 * kGranulesPerNode + 9);
  deferred.blocks.Materialize(deferred.memory, kNodeBytes + 16, 8);
  EXPECT_EQ(deferred.blocks.built(), 1u);
  EXPECT_EQ(deferred.blocks.pending_granules(), kGranulesPerNode + 9);
  // Reads of a node's last bytes, the last of which builds it.
  std::vector<uint8_t> tail(8);
  for (uint64_t read = 0; read <= DeferredBlocks::kReadsThroughBeforeBuild; ++read) {
    deferred.blocks.Read(deferred.memory, kNode3 + kNodeBytes - 8, tail.data(), 8);
  }
  EXPECT_EQ(deferred.blocks.built(), 2u);
  // Node 3's first granule is node 2's last, which is still pending.
  EXPECT_EQ(deferred.blocks.pending_granules(), kGranulesPerNode + 5);
  std::vector<uint8_t> expected(kNodeBytes);
  content->Fill(3, expected);
  EXPECT_EQ(tail, std::vector<uint8_t>(expected.end() - 8, expected.end()));
}

// A read's prefetch asks the content for the pending block at the offset,
// or the one before it when the offset lies in a gap, and for nothing once
// every block is built; it changes nothing a read returns.
TEST(DeferredBlocks, PrefetchNamesTheBlockAReadWillBuild) {
  PendingMixedLayout layout;
  auto& [offsets, content, expected, deferred] = layout;
  for (const auto& [block, offset] : offsets) {
    deferred.blocks.Prefetch(offset);
    EXPECT_EQ(content->prefetched, block) << "at " << offset;
    deferred.blocks.Prefetch(offset + kBlockBytes - 1);
    EXPECT_EQ(content->prefetched, block) << "at the last byte of " << offset;
  }
  // Past the last block: nothing to build.
  content->prefetched = 12345;
  deferred.blocks.Prefetch(kRegionBytes - 1);
  EXPECT_EQ(content->prefetched, 12345u);
  for (uint64_t offset = 0; offset < kRegionBytes; offset += 61) {
    deferred.blocks.Prefetch(offset);
    std::vector<uint8_t> out(kBlockBytes / 2);
    const uint64_t length = std::min<uint64_t>(out.size(), kRegionBytes - offset);
    deferred.blocks.Read(deferred.memory, offset, out.data(), length);
    ASSERT_TRUE(std::equal(out.begin(), out.begin() + length, expected.begin() + offset))
        << "read at " << offset;
  }
  deferred.blocks.MaterializeAll(deferred.memory);
  content->prefetched = 12345;
  deferred.blocks.Prefetch(offsets.begin()->second);
  EXPECT_EQ(content->prefetched, 12345u);
}

TEST(DeferredBlocks, RefusesOverlapsAndAContentWhileAnotherIsPending) {
  Deferred deferred;
  const auto overlapping =
      std::make_shared<LaidOutContent>(std::map<uint64_t, uint64_t>{{0, 0}, {1, kBlockBytes - 1}});
  EXPECT_THROW(deferred.blocks.Add(overlapping, std::vector<uint64_t>{0, 1}),
               std::invalid_argument);
  const auto offsets = MixedLayout();
  deferred.blocks.Add(std::make_shared<LaidOutContent>(offsets), Indices(offsets));
  const auto later = std::make_shared<LaidOutContent>(std::map<uint64_t, uint64_t>{{0, 50000}});
  EXPECT_THROW(deferred.blocks.Add(later, std::vector<uint64_t>{0}), std::logic_error);
  deferred.blocks.MaterializeAll(deferred.memory);
  deferred.blocks.Add(later, std::vector<uint64_t>{0});
  EXPECT_EQ(deferred.blocks.pending(), 1u);
}

}  // namespace
}  // namespace dmbench::rdma::sim
