#include "harness/rdma/sim/deferred_blocks.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

namespace dmbench::rdma::sim {

DeferredBlocks::DeferredBlocks(uint64_t region_bytes)
    : granules_((((region_bytes + kGranuleBytes - 1) >> kGranuleBits) + 63) / 64, 0) {}

void DeferredBlocks::Add(std::shared_ptr<const DeferredContent> content,
                         std::span<const uint64_t> blocks) {
  if (pending_ != 0) {
    throw std::logic_error("deferred blocks added while " + std::to_string(pending_) +
                           " of an earlier content are pending (build them first)");
  }
  if (blocks.empty()) return;
  // Every earlier block is built: only the new ones need tracking.
  content_ = std::move(content);
  block_bytes_ = content_->block_bytes();
  runs_.clear();
  std::vector<uint64_t> offsets(blocks.size());
  for (size_t i = 0; i < blocks.size(); ++i) offsets[i] = content_->address(blocks[i]).offset;
  // A bulkload allocates its nodes in block order, so the list usually comes
  // sorted; checking first spares sorting a billion keys' 16 M blocks.
  if (std::is_sorted(offsets.begin(), offsets.end())) {
    AddRuns(offsets, blocks);
  } else {
    std::vector<uint64_t> order(blocks.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](uint64_t a, uint64_t b) { return offsets[a] < offsets[b]; });
    std::vector<uint64_t> sorted_offsets(blocks.size());
    std::vector<uint64_t> sorted_indices(blocks.size());
    for (size_t i = 0; i < order.size(); ++i) {
      sorted_offsets[i] = offsets[order[i]];
      sorted_indices[i] = blocks[order[i]];
    }
    AddRuns(sorted_offsets, sorted_indices);
  }
}

void DeferredBlocks::AddRuns(std::span<const uint64_t> offsets, std::span<const uint64_t> indices) {
  for (size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i - 1] + block_bytes_ > offsets[i]) {
      throw std::invalid_argument("deferred blocks overlap at region offset " +
                                  std::to_string(offsets[i]));
    }
  }
  for (size_t i = 0; i < offsets.size(); ++i) {
    const uint64_t last = (offsets[i] + block_bytes_ - 1) >> kGranuleBits;
    for (uint64_t granule = offsets[i] >> kGranuleBits; granule <= last; ++granule) {
      granules_.at(granule >> 6) |= uint64_t{1} << (granule & 63);
    }
    if (!runs_.empty()) {
      Run& run = runs_.back();
      const auto index_step = static_cast<int64_t>(indices[i] - run.index);
      if (run.count == 1) {
        run.stride = offsets[i] - run.offset;
        run.index_stride = index_step;
        ++run.count;
        continue;
      }
      if (offsets[i] == run.offset + run.count * run.stride &&
          index_step == static_cast<int64_t>(run.count) * run.index_stride) {
        ++run.count;
        continue;
      }
    }
    runs_.push_back({offsets[i], block_bytes_, indices[i], 0, 1, i});
  }
  states_.assign((offsets.size() + kStatesPerWord - 1) / kStatesPerWord, 0);
  pending_ = offsets.size();
}

DeferredBlocks::Cursor DeferredBlocks::FirstOverlapping(uint64_t offset) const {
  // The last run that starts at or before offset, if any.
  auto run =
      std::upper_bound(runs_.begin(), runs_.end(), offset,
                       [](uint64_t at, const Run& candidate) { return at < candidate.offset; });
  if (run == runs_.begin()) return {0, 0};
  --run;
  const auto index = static_cast<size_t>(run - runs_.begin());
  if (offset >= run->last_offset() + block_bytes_) return {index + 1, 0};
  // The block at or before offset: offset may lie in the gap after it.
  return {index, (offset - run->offset) / run->stride};
}

void DeferredBlocks::FillScratch(Cursor at) {
  // Fill writes every byte of the block (DeferredContent's contract), so the
  // scratch's earlier contents do not matter.
  scratch_.resize(block_bytes_);
  content_->Fill(IndexOf(at), std::span(scratch_.data(), block_bytes_));
}

void DeferredBlocks::Build(PagedBytes& memory, Cursor at) {
  if (uint8_t* in_place = memory.WritableInOnePage(OffsetOf(at), block_bytes_)) {
    content_->Fill(IndexOf(at), std::span(in_place, block_bytes_));
  } else {
    FillScratch(at);
    memory.Write(OffsetOf(at), scratch_.data(), block_bytes_);
  }
  SetBuilt(at);
  if (ReadsThrough(at) != 0) --read_through_;
  --pending_;
  ++built_;
  // A granule inside the block overlaps no other block (blocks do not
  // overlap), so nothing pending is left in it; RefreshGranules then
  // searches the blocks for the granules at its edges only (it searched
  // for each of a node's four: 325 instructions per call, 0.5% of a 10 M-key
  // simulation's).
  const uint64_t end = EndOf(at) >> kGranuleBits;
  for (uint64_t granule = (OffsetOf(at) + kGranuleBytes - 1) >> kGranuleBits; granule < end;
       ++granule) {
    ClearBit(granules_, granule);
  }
}

void DeferredBlocks::MaterializeSlow(PagedBytes& memory, uint64_t offset, uint64_t length) {
  const uint64_t end = offset + length;
  const uint64_t first = offset >> kGranuleBits;
  const Cursor from = FirstOverlapping(first << kGranuleBits);
  Extent built{offset, end};
  for (Cursor at = from; !AtEnd(at) && OffsetOf(at) < end; Next(at)) {
    if (!Built(at) && EndOf(at) > offset) BuildInto(memory, at, built);
  }
  RefreshGranules(from, first, built);
}

void DeferredBlocks::BuildInto(PagedBytes& memory, Cursor at, Extent& built) {
  Build(memory, at);
  built.begin = std::min(built.begin, OffsetOf(at));
  built.end = std::max(built.end, EndOf(at));
}

void DeferredBlocks::ReadSlow(PagedBytes& memory, uint64_t offset, uint8_t* out, uint64_t length) {
  const uint64_t end = offset + length;
  const uint64_t first = offset >> kGranuleBits;
  const Cursor from = FirstOverlapping(first << kGranuleBits);
  // Until it is built, a pending block's bytes are what the region holds
  // under it (every write builds what it overlaps first), so a read inside
  // one pending block, as a verb's read of a node is, needs nothing of the
  // region.
  Cursor inside = from;
  while (!AtEnd(inside) && EndOf(inside) <= offset) Next(inside);
  if (AtEnd(inside) || Built(inside) || OffsetOf(inside) > offset || EndOf(inside) < end) {
    memory.Read(offset, out, length);
  }
  bool built_any = false;
  Extent built{offset, end};
  for (Cursor at = from; !AtEnd(at) && OffsetOf(at) < end; Next(at)) {
    const uint64_t block_offset = OffsetOf(at);
    const uint64_t block_end = EndOf(at);
    if (Built(at) || block_end <= offset) continue;
    const uint64_t begin = std::max(offset, block_offset);
    const uint64_t stop = std::min(end, block_end);
    if (ReadsThrough(at) == kReadsThroughBeforeBuild) {
      BuildInto(memory, at, built);
      built_any = true;
      memory.Read(begin, out + (begin - offset), stop - begin);
    } else {
      ReadThrough(at, begin, stop, out + (begin - offset));
    }
  }
  if (built_any) RefreshGranules(from, first, built);
}

void DeferredBlocks::ReadThrough(Cursor at, uint64_t begin, uint64_t stop, uint8_t* out) {
  if (ReadsThrough(at) == 0) ++read_through_;
  CountReadThrough(at);
  if (begin == OffsetOf(at) && stop == EndOf(at)) {
    content_->Fill(IndexOf(at), std::span(out, block_bytes_));
    return;
  }
  FillScratch(at);
  std::memcpy(out, scratch_.data() + (begin - OffsetOf(at)), stop - begin);
}

void DeferredBlocks::RefreshGranules(Cursor from, uint64_t first, Extent built) {
  // A block built from part of it (an 8-byte atomic, one entry's write) has
  // granules outside the access too: clearing them keeps every later access
  // to the node off the slow path.
  if ((built.begin >> kGranuleBits) < first) {
    first = built.begin >> kGranuleBits;
    from = FirstOverlapping(first << kGranuleBits);
  }
  const uint64_t last = (built.end - 1) >> kGranuleBits;
  // Later granules start later, so the blocks that end before one of them
  // are passed for good.
  for (uint64_t granule = first; granule <= last; ++granule) {
    if (!GranulePending(granule)) continue;
    const uint64_t begin = granule << kGranuleBits;
    const uint64_t end = begin + kGranuleBytes;
    while (!AtEnd(from) && EndOf(from) <= begin) Next(from);
    bool pending = false;
    for (Cursor at = from; !AtEnd(at) && OffsetOf(at) < end; Next(at)) {
      if (!Built(at) && EndOf(at) > begin) {
        pending = true;
        break;
      }
    }
    if (!pending) ClearBit(granules_, granule);
  }
}

uint64_t DeferredBlocks::pending_granules() const {
  uint64_t count = 0;
  for (const uint64_t word : granules_) count += static_cast<uint64_t>(std::popcount(word));
  return count;
}

void DeferredBlocks::MaterializeAll(PagedBytes& memory) {
  if (pending_ == 0) return;
  for (Cursor at{0, 0}; !AtEnd(at); Next(at)) {
    if (!Built(at)) Build(memory, at);
  }
  std::fill(granules_.begin(), granules_.end(), 0);
}

}  // namespace dmbench::rdma::sim
