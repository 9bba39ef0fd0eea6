// The deferred blocks (rdma/deferred_content.h) of one simulated memory
// region that no verb has touched yet.
//
// The region asks for [offset, offset + length) before every access; a block
// overlapping it is built into the region's bytes then, once (the first
// READs of a block build it into the reader's buffer only: see Read). Until
// then it costs no page of the region, so a bulkloaded tree of 17 GB costs
// what a run reads and writes of it.
//
// The blocks are held as runs: blocks evenly spaced in the region whose
// content indices are evenly spaced too, as a bulkload lays out its nodes
// (node i on memory server i mod M, each server's nodes side by side). A run
// costs 48 bytes, each block five bits (built, and a count of reads) in the
// same word: a record per block cost 32 bytes, 512 MB of a 1 B-key run and a
// tenth of its set-up, and the two in arrays of their own were two misses to
// DRAM for every read of a pending block at 1 B keys. Any layout works; an
// irregular one costs a run per block.
//
// A bitmap of 256-byte granules keeps the check to a bit test for the
// granules that hold no pending block: every granule of a built node, even
// while its neighbours wait (with 4 KiB pages, a read of a built node whose
// page still held unbuilt ones searched the blocks every time: a quarter of
// the memory servers' work at 10 M keys). The bitmap costs a bit per
// granule, 2 MiB per 4 GiB region.
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
  // Blocks must not overlap. No block of an earlier content may be pending
  // (MemoryRegion builds them all first); throws std::logic_error if one is.
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
  // Materialize then memory.Read would, but the first kReadsThroughBeforeBuild
  // reads of a pending block build it into `out` alone, and it stays pending;
  // the next read builds it into `memory`. Most nodes of a large bulkload are
  // read a few times or never in a run, and storing each one cost a
  // kernel-zeroed operating-system page per four 1 KiB nodes (at 1 B keys a
  // fifth of the simulation's time, when the first read stored it), and its
  // later reads copied it from DRAM.
  void Read(PagedBytes& memory, uint64_t offset, uint8_t* out, uint64_t length) {
    if (pending_ != 0) {
      const uint64_t last = (offset + length - 1) >> kGranuleBits;
      for (uint64_t granule = offset >> kGranuleBits; granule <= last; ++granule) {
        if (GranulePending(granule)) {
          ReadSlow(memory, offset, out, length);
          return;
        }
      }
    }
    memory.Read(offset, out, length);
  }

  // Hints that a Read at `offset` comes later. Its granule's bit, like the
  // bytes, is a miss to DRAM in a large region; so are, when the block there
  // is pending, its state bits and what its content looks up to build it
  // (at 1 B keys, a third of a read-intensive simulation's last-level
  // misses). Changes nothing a read returns.
  void Prefetch(uint64_t offset) const {
    if (pending_ == 0) return;
    __builtin_prefetch(&granules_[(offset >> kGranuleBits) >> 6]);
    const Cursor at = FirstOverlapping(offset);
    if (AtEnd(at)) return;
    const uint64_t ordinal = OrdinalOf(at);
    __builtin_prefetch(&states_[StateWord(ordinal)]);
    content_->Prefetch(IndexOf(at));
  }

  // How many reads of a pending block build it into the reader's buffer
  // alone. Building a 1 KiB leaf takes about 1,800 instructions; storing it
  // and copying it out takes fewer, but misses to DRAM on a node that is not
  // read again soon. Counted at 10 M keys (Sherman, the paper's settings), 15
  // against the second read storing it: 7.4% more instructions per
  // read-intensive operation, 89% fewer last-level misses, 60% less memory;
  // timed, 4% less CPU time per operation (10 of 11 alternated rounds), and
  // 5-6% read-only. Against storing it at the 7th read (counted, not
  // timed): 1.1% more instructions per read-intensive operation, 32% fewer
  // last-level misses. Writes build a block whatever its count.
  static constexpr uint64_t kReadsThroughBeforeBuild = 15;

  uint64_t pending() const { return pending_; }
  uint64_t built() const { return built_; }
  // Pending blocks a READ has built into its buffer alone (read through).
  uint64_t read_through() const { return read_through_; }
  // The runs the blocks of the last Add are held in (see the top).
  uint64_t runs() const { return runs_.size(); }
  // Granules whose accesses take the slow path: those a pending block may
  // overlap (see the top).
  uint64_t pending_granules() const;

 private:
  static constexpr int kGranuleBits = 8;  // granules of 256 bytes
  static constexpr uint64_t kGranuleBytes = uint64_t{1} << kGranuleBits;
  // A block's state, kStateBits of a word of states_: its count of reads
  // through in the low kReadCountBits, then whether it is built.
  static constexpr unsigned kReadCountBits = 4;
  static constexpr unsigned kStateBits = kReadCountBits + 1;
  static constexpr uint64_t kStatesPerWord = 64 / kStateBits;
  static_assert(kReadsThroughBeforeBuild < (uint64_t{1} << kReadCountBits));

  // Blocks count, the k-th of which lies at offset + k * stride (stride >=
  // the block's bytes) and is block index + k * index_stride of content_;
  // its state is entry first_ordinal + k of states_.
  struct Run {
    uint64_t offset;
    uint64_t stride;
    uint64_t index;
    int64_t index_stride;
    uint64_t count;
    uint64_t first_ordinal;
    // Where the last block starts.
    uint64_t last_offset() const { return offset + (count - 1) * stride; }
  };
  // A block: the k-th of runs_[run]. Past the last block, run == runs_.size().
  struct Cursor {
    size_t run;
    uint64_t k;
  };

  void MaterializeSlow(PagedBytes& memory, uint64_t offset, uint64_t length);
  void ReadSlow(PagedBytes& memory, uint64_t offset, uint8_t* out, uint64_t length);
  // Counts a read through of the pending block `at` and builds its bytes [begin,
  // stop) into `out`: straight there when that is the whole block, else
  // through scratch_.
  void ReadThrough(Cursor at, uint64_t begin, uint64_t stop, uint8_t* out);
  // Adds the blocks at `offsets` (ascending), whose content indices are
  // `indices`, as runs; throws std::invalid_argument if two overlap.
  void AddRuns(std::span<const uint64_t> offsets, std::span<const uint64_t> indices);

  bool AtEnd(Cursor at) const { return at.run >= runs_.size(); }
  void Next(Cursor& at) const {
    if (++at.k == runs_[at.run].count) at = {at.run + 1, 0};
  }
  uint64_t OffsetOf(Cursor at) const { return runs_[at.run].offset + at.k * runs_[at.run].stride; }
  uint64_t EndOf(Cursor at) const { return OffsetOf(at) + block_bytes_; }
  uint64_t OrdinalOf(Cursor at) const { return runs_[at.run].first_ordinal + at.k; }
  // The block's index in content_.
  uint64_t IndexOf(Cursor at) const {
    const Run& run = runs_[at.run];
    return run.index + static_cast<uint64_t>(static_cast<int64_t>(at.k) * run.index_stride);
  }
  static bool Bit(const std::vector<uint64_t>& bits, uint64_t i) {
    return (bits[i >> 6] >> (i & 63)) & 1;
  }
  static void ClearBit(std::vector<uint64_t>& bits, uint64_t i) {
    bits[i >> 6] &= ~(uint64_t{1} << (i & 63));
  }
  bool GranulePending(uint64_t granule) const { return Bit(granules_, granule); }
  // Where the block of `ordinal` keeps its state in states_.
  static uint64_t StateWord(uint64_t ordinal) { return ordinal / kStatesPerWord; }
  static uint64_t StateShift(uint64_t ordinal) { return ordinal % kStatesPerWord * kStateBits; }
  uint64_t State(Cursor at) const {
    const uint64_t ordinal = OrdinalOf(at);
    return (states_[StateWord(ordinal)] >> StateShift(ordinal)) & ((uint64_t{1} << kStateBits) - 1);
  }
  bool Built(Cursor at) const { return (State(at) >> kReadCountBits) != 0; }
  void SetBuilt(Cursor at) {
    const uint64_t ordinal = OrdinalOf(at);
    states_[StateWord(ordinal)] |= uint64_t{1} << (StateShift(ordinal) + kReadCountBits);
  }
  // How many reads built the pending block into their buffer alone.
  uint64_t ReadsThrough(Cursor at) const {
    return State(at) & ((uint64_t{1} << kReadCountBits) - 1);
  }
  // The count must be below kReadsThroughBeforeBuild, so that it does not
  // carry into the built bit.
  void CountReadThrough(Cursor at) {
    const uint64_t ordinal = OrdinalOf(at);
    states_[StateWord(ordinal)] += uint64_t{1} << StateShift(ordinal);
  }

  // Builds the block's bytes into scratch_.
  void FillScratch(Cursor at);
  // Builds the block into `memory`: in place when it lies in one page (a
  // node always does), else through scratch_.
  void Build(PagedBytes& memory, Cursor at);
  // Region bytes [begin, end): an access, widened by the blocks it built.
  struct Extent {
    uint64_t begin;
    uint64_t end;
  };
  // Build, and widens `built` by the block.
  void BuildInto(PagedBytes& memory, Cursor at, Extent& built);
  // Clears the bits of the granules of `built` that no pending block
  // overlaps. `first` is the granule the access began in, and `from`
  // FirstOverlapping of its start.
  void RefreshGranules(Cursor from, uint64_t first, Extent built);
  // The first block that may overlap `offset` or lie after it.
  Cursor FirstOverlapping(uint64_t offset) const;

  std::shared_ptr<const DeferredContent> content_;  // whose blocks runs_ holds
  uint32_t block_bytes_ = 0;                        // content_'s, read once
  std::vector<Run> runs_;                           // sorted by offset
  std::vector<uint64_t> states_;                    // by ordinal (State)
  std::vector<uint64_t> granules_;
  std::vector<uint8_t> scratch_;  // one block being built
  uint64_t pending_ = 0;
  uint64_t built_ = 0;
  uint64_t read_through_ = 0;
};

}  // namespace dmbench::rdma::sim
