// The deferred blocks (rdma/deferred_content.h) of one simulated memory
// region that no verb has touched yet.
//
// The region asks for [offset, offset + length) before every access; a block
// overlapping it is built into the region's bytes then, once (a READ's first
// look at a block builds it into the reader's buffer only: see Read). Until then it
// costs its bookkeeping (about 24 bytes) and no page of the region, so a
// bulkloaded tree of 17 GB costs what a run reads and writes of it. A bitmap
// of 256-byte granules keeps the check to a bit test for the granules that
// hold no pending block: every granule of a built node, even while its
// neighbours wait (with 4 KiB pages, a read of a built node whose page still
// held unbuilt ones searched the block list every time: a quarter of the
// memory servers' work at 10 M keys). The bitmap costs a bit per granule,
// 2 MiB per 4 GiB region.
//
// Not thread-safe: the simulated fabric runs on one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "harness/rdma/deferred_content.h"
#include "harness/rdma/sim/paged_bytes.h"

namespace dmbench::rdma::sim {

class DeferredBlocks {
 public:
  explicit DeferredBlocks(uint64_t region_bytes);

  // Takes the blocks of `content` listed in `blocks` (their content index),
  // all of which lie in this region at `content->address(block).offset`.
  // Blocks must not overlap each other or a block still pending.
  void Add(std::shared_ptr<const DeferredContent> content, std::span<const uint64_t> blocks);

  // Builds into `memory` (the region's bytes) every pending block that
  // overlaps [offset, offset + length).
  void Materialize(PagedBytes& memory, uint64_t offset, uint64_t length) {
    if (pending_ == 0) return;
    const uint64_t last = (offset + length - 1) >> kGranuleBits;
    for (uint64_t granule = offset >> kGranuleBits; granule <= last; ++granule) {
      if (GranulePending(granule)) {
        MaterializeSlow(memory, offset, length);
        return;
      }
    }
  }
  // Builds every pending block.
  void MaterializeAll(PagedBytes& memory);

  // Copies [offset, offset + length) of the region into `out`, as
  // Materialize then memory.Read would, but a pending block read for the
  // first time is built into `out` alone and stays pending, marked as read
  // once; its second read builds it into `memory`. Most nodes of a large
  // bulkload are read once or never in a run, and storing each one cost a
  // kernel-zeroed operating-system page per four 1 KiB nodes: at 1 B keys a
  // fifth of the simulation's time.
  void Read(PagedBytes& memory, uint64_t offset, uint8_t* out, uint64_t length) {
    memory.Read(offset, out, length);
    if (pending_ == 0) return;
    const uint64_t last = (offset + length - 1) >> kGranuleBits;
    for (uint64_t granule = offset >> kGranuleBits; granule <= last; ++granule) {
      if (GranulePending(granule)) {
        ReadSlow(memory, offset, out, length);
        return;
      }
    }
  }

  uint64_t pending() const { return pending_; }
  uint64_t built() const { return built_; }
  // Pending blocks a READ has built into its buffer alone (read once).
  uint64_t read_through() const { return read_through_; }

 private:
  static constexpr int kGranuleBits = 8;  // granules of 256 bytes
  struct Block {
    uint64_t offset;
    uint64_t index;    // in its content
    uint32_t content;  // in contents_
    uint32_t bytes;
    bool built;
    bool read_once;  // built into a reader's buffer, not into the region
  };

  bool GranulePending(uint64_t granule) const {
    return (granules_[granule >> 6] >> (granule & 63)) & 1;
  }
  void MaterializeSlow(PagedBytes& memory, uint64_t offset, uint64_t length);
  void ReadSlow(PagedBytes& memory, uint64_t offset, uint8_t* out, uint64_t length);
  // Builds `block`'s bytes into scratch_.
  void FillScratch(const Block& block);
  // Builds `block` into `memory`; its bytes stay in scratch_ until the next
  // build.
  void Build(PagedBytes& memory, Block& block);
  // Clears the bits of the granules in [first, last] that no pending block
  // overlaps; `from` is FirstOverlapping of granule first's start.
  void RefreshGranules(std::vector<Block>::iterator from, uint64_t first, uint64_t last);
  // The first block that may overlap `offset` or lie after it.
  std::vector<Block>::iterator FirstOverlapping(uint64_t offset);

  std::vector<std::shared_ptr<const DeferredContent>> contents_;
  std::vector<Block> blocks_;  // sorted by offset
  std::vector<uint64_t> granules_;
  uint32_t largest_block_ = 0;
  std::vector<uint8_t> scratch_;  // one block being built
  uint64_t pending_ = 0;
  uint64_t built_ = 0;
  uint64_t read_through_ = 0;
};

}  // namespace dmbench::rdma::sim
