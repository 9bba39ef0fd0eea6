// One address space (host DRAM or NIC on-chip memory) of a simulated memory
// server: real bytes (sim/paged_bytes.h), plus what the DMA engine needs to
// tear reads.
//
// Writes are applied to the bytes at once when their DMA starts, but each
// cacheline is deemed to land at its own time over the DMA's duration, and
// the overwritten bytes are logged. A READ is resolved when its DMA ends, or
// as late as its client's resumption (NicModel::Post): it copies the bytes
// and, line by line, undoes every logged write that landed on that line after
// the READ sampled it. So a READ sees each cacheline as it
// was at one instant, and a mix across lines only while a write overlaps it
// in time: exactly the cacheline-granular tearing of real DMA.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "harness/rdma/deferred_content.h"
#include "harness/rdma/sim/deferred_blocks.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/rdma/sim/paged_bytes.h"
#include "harness/rdma/sim/sim_time.h"
#include "harness/util/random.h"

namespace dmbench::rdma::sim {

class MemoryRegion {
 public:
  MemoryRegion(uint64_t bytes, uint64_t cacheline_bytes);
  ~MemoryRegion();
  MemoryRegion(const MemoryRegion&) = delete;
  MemoryRegion& operator=(const MemoryRegion&) = delete;

  // Raw access outside simulated time (tests, inspection): no write log, no
  // tearing; every deferred block is built first. Throws std::out_of_range
  // outside the region.
  void Peek(uint64_t offset, void* out, uint64_t length);
  void Poke(uint64_t offset, const void* in, uint64_t length);

  // Takes the deferred blocks `blocks` of `content` that lie in this region
  // (rdma/deferred_content.h); each is built when an access first overlaps
  // it. Blocks still pending from earlier content are built first, so that
  // the newer content wins where the two overlap.
  void AddDeferred(std::shared_ptr<const DeferredContent> content,
                   std::span<const uint64_t> blocks);
  const DeferredBlocks& deferred() const { return deferred_; }

  // A READ will be resolved up to `window` after its DMA starts; the write
  // log must reach back that far.
  void NoteReadWindow(SimTime window);

  // Applies a write whose cachelines land in ascending order over
  // [start, end]; `start` is the current simulated time.
  void Write(uint64_t offset, const void* source, uint32_t length, SimTime start, SimTime end);
  // Applies the result of an atomic at `now` (one word, one instant).
  void WriteWord(uint64_t offset, uint64_t value, SimTime now);
  uint64_t ReadWord(uint64_t offset);

  // Resolves a READ whose cachelines were sampled over [start, end] in
  // `order`; `end` is at or before the current simulated time, and
  // NoteReadWindow was told of a window reaching from `start` to now.
  void Read(uint64_t offset, void* destination, uint32_t length, SimTime start, SimTime end,
            DmaOrder order, Random& random);

  // Hints, for speed alone, that a READ at `offset` will be resolved later;
  // called when it is scheduled.
  void PrepareRead(uint64_t offset) const {
    bytes_.PrefetchTableEntry(offset);
    deferred_.Prefetch(offset);
  }

  // READs that saw part of a write and not the rest.
  uint64_t torn_reads() const { return torn_reads_; }

 private:
  struct LoggedWrite {
    uint64_t offset;
    uint32_t length;
    SimTime start;
    SimTime end;
    std::vector<uint8_t> old_bytes;
  };

  void Log(uint64_t offset, uint32_t length, SimTime start, SimTime end);
  void CheckRaw(uint64_t offset, uint64_t length) const;
  // When the write's part of line `line` landed.
  SimTime LineLandedAt(const LoggedWrite& write, uint64_t line) const;

  PagedBytes bytes_;
  DeferredBlocks deferred_;
  uint64_t cacheline_bytes_;
  SimTime longest_read_window_ = 0;
  std::deque<LoggedWrite> log_;
  // Buffers of entries dropped from the log, for new entries to reuse: every
  // logged write allocated and freed one. A log holds a few microseconds of
  // writes, so a few dozen cover it.
  static constexpr size_t kSpareOldBytes = 64;
  std::vector<std::vector<uint8_t>> spare_old_bytes_;
  std::vector<uint32_t> line_ranks_;  // scratch for one READ
  uint64_t torn_reads_ = 0;
};

}  // namespace dmbench::rdma::sim
