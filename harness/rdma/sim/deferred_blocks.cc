#include "harness/rdma/sim/deferred_blocks.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "harness/util/interpolated_search.h"

namespace dmbench::rdma::sim {

DeferredBlocks::DeferredBlocks(uint64_t region_bytes)
    : granules_((((region_bytes + (uint64_t{1} << kGranuleBits) - 1) >> kGranuleBits) + 63) / 64,
                0) {}

void DeferredBlocks::Add(std::shared_ptr<const DeferredContent> content,
                         std::span<const uint64_t> blocks) {
  if (blocks.empty()) return;
  const auto content_index = static_cast<uint32_t>(contents_.size());
  const uint32_t bytes = content->block_bytes();
  std::vector<Block> added;
  added.reserve(blocks.size());
  for (const uint64_t index : blocks) {
    added.push_back({content->address(index).offset, index, content_index, bytes, false, false});
  }
  const auto by_offset = [](const Block& a, const Block& b) { return a.offset < b.offset; };
  // A bulkload allocates its nodes in block order, so the list usually comes
  // sorted; checking first spares sorting a billion keys' 16 M blocks.
  if (!std::is_sorted(added.begin(), added.end(), by_offset)) {
    std::sort(added.begin(), added.end(), by_offset);
  }
  for (size_t i = 1; i < added.size(); ++i) {
    if (added[i - 1].offset + bytes > added[i].offset) {
      throw std::invalid_argument("deferred blocks overlap at region offset " +
                                  std::to_string(added[i].offset));
    }
  }
  for (const Block& block : added) {
    const uint64_t last = (block.offset + block.bytes - 1) >> kGranuleBits;
    for (uint64_t granule = block.offset >> kGranuleBits; granule <= last; ++granule) {
      granules_.at(granule >> 6) |= uint64_t{1} << (granule & 63);
    }
  }
  contents_.push_back(std::move(content));
  largest_block_ = std::max(largest_block_, bytes);
  pending_ += added.size();
  if (blocks_.empty()) {
    blocks_ = std::move(added);
    return;
  }
  std::vector<Block> merged;
  merged.reserve(blocks_.size() + added.size());
  std::merge(blocks_.begin(), blocks_.end(), added.begin(), added.end(), std::back_inserter(merged),
             by_offset);
  blocks_ = std::move(merged);
}

std::vector<DeferredBlocks::Block>::iterator DeferredBlocks::FirstOverlapping(uint64_t offset) {
  if (offset < largest_block_) return blocks_.begin();
  // The first block at or after offset - largest_block_ + 1: after the key
  // one below it. A bulkload lays its nodes out evenly, so the search
  // interpolates.
  return InterpolatedUpperBound(blocks_.begin(), blocks_.end(), offset - largest_block_,
                                [](const Block& block) { return block.offset; });
}

void DeferredBlocks::FillScratch(const Block& block) {
  // Fill writes every byte of the block (DeferredContent's contract), so the
  // scratch's earlier contents do not matter.
  scratch_.resize(block.bytes);
  contents_[block.content]->Fill(block.index, std::span(scratch_.data(), block.bytes));
}

void DeferredBlocks::Build(PagedBytes& memory, Block& block) {
  FillScratch(block);
  memory.Write(block.offset, scratch_.data(), block.bytes);
  block.built = true;
  if (block.read_once) --read_through_;
  --pending_;
  ++built_;
}

void DeferredBlocks::MaterializeSlow(PagedBytes& memory, uint64_t offset, uint64_t length) {
  const uint64_t end = offset + length;
  const uint64_t first = offset >> kGranuleBits;
  // One search serves both passes: from the blocks that may reach into the
  // first granule, which start no later than those that reach `offset`.
  // At 1 B keys a region holds 2 M blocks, and each search was a chain of
  // cache misses.
  const auto from = FirstOverlapping(first << kGranuleBits);
  for (auto it = from; it != blocks_.end() && it->offset < end; ++it) {
    if (!it->built && it->offset + it->bytes > offset) Build(memory, *it);
  }
  RefreshGranules(from, first, (end - 1) >> kGranuleBits);
}

void DeferredBlocks::ReadSlow(PagedBytes& memory, uint64_t offset, uint8_t* out, uint64_t length) {
  const uint64_t end = offset + length;
  const uint64_t first = offset >> kGranuleBits;
  const auto from = FirstOverlapping(first << kGranuleBits);
  bool built_any = false;
  for (auto it = from; it != blocks_.end() && it->offset < end; ++it) {
    if (it->built || it->offset + it->bytes <= offset) continue;
    const uint64_t begin = std::max(offset, it->offset);
    const uint64_t stop = std::min(end, it->offset + it->bytes);
    if (it->read_once) {
      Build(memory, *it);
      built_any = true;
    } else {
      FillScratch(*it);
      it->read_once = true;
      ++read_through_;
    }
    std::memcpy(out + (begin - offset), scratch_.data() + (begin - it->offset), stop - begin);
  }
  if (built_any) RefreshGranules(from, first, (end - 1) >> kGranuleBits);
}

void DeferredBlocks::RefreshGranules(std::vector<Block>::iterator from, uint64_t first,
                                     uint64_t last) {
  // Later granules start later, so the blocks that end before one of them
  // are passed for good.
  for (uint64_t granule = first; granule <= last; ++granule) {
    if (!GranulePending(granule)) continue;
    const uint64_t begin = granule << kGranuleBits;
    const uint64_t end = begin + (uint64_t{1} << kGranuleBits);
    while (from != blocks_.end() && from->offset + from->bytes <= begin) ++from;
    bool pending = false;
    for (auto it = from; it != blocks_.end() && it->offset < end; ++it) {
      if (!it->built && it->offset + it->bytes > begin) {
        pending = true;
        break;
      }
    }
    if (!pending) granules_[granule >> 6] &= ~(uint64_t{1} << (granule & 63));
  }
}

void DeferredBlocks::MaterializeAll(PagedBytes& memory) {
  if (pending_ == 0) return;
  for (Block& block : blocks_) {
    if (!block.built) Build(memory, block);
  }
  std::fill(granules_.begin(), granules_.end(), 0);
}

}  // namespace dmbench::rdma::sim
