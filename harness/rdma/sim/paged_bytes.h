// The bytes of one simulated address space, held in 1 KiB pages that exist
// once something writes them; bytes never written read as zero, as
// registered memory starts.
//
// A run touches nodes scattered over the whole space (a uniform workload at
// the paper's 1 B keys touches millions of 1 KiB nodes over 17 GB). Backed
// by one anonymous mapping, each of those cost a 4 KiB operating-system page
// and a kernel page fault: four times the memory a run touches, and a large
// share of a simulation's time. Pages of the size of a node, taken in order
// from an arena, cost the bytes touched plus a 4-byte table entry per KiB of
// the space (itself mapped lazily).
//
// The arena is one reserved mapping the size of the space, filled from its
// start, so its operating-system pages are whole pages of written nodes.
// (Transparent huge pages for it cut the TLB misses of node copies, but
// zeroing 2 MiB pages cost more system time than that saved: 0.55 s against
// 0.14 s in a 10 M-key read-intensive run on a 2-vCPU VM.)
//
// Not thread-safe: the simulated fabric runs on one thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace dmbench::rdma::sim {

class PagedBytes {
 public:
  // Throws MemoryExhaustedError if the page table or the arena cannot be
  // mapped.
  explicit PagedBytes(uint64_t size);
  ~PagedBytes();
  PagedBytes(const PagedBytes&) = delete;
  PagedBytes& operator=(const PagedBytes&) = delete;

  uint64_t size() const { return size_; }
  // [offset, offset + length) must lie inside [0, size()); the callers
  // (MemoryRegion) check their verbs' bounds.
  void Read(uint64_t offset, void* out, uint64_t length) const {
    if (SamePage(offset, length)) {
      const uint32_t slot = table_[offset >> kPageBits];
      if (slot == 0) {
        std::memset(out, 0, length);
      } else {
        std::memcpy(out, PageBytes(slot) + (offset & kPageMask), length);
      }
      return;
    }
    ReadAcrossPages(offset, static_cast<uint8_t*>(out), length);
  }
  void Write(uint64_t offset, const void* in, uint64_t length) {
    if (SamePage(offset, length)) {
      std::memcpy(WritablePage(offset >> kPageBits) + (offset & kPageMask), in, length);
      return;
    }
    WriteAcrossPages(offset, static_cast<const uint8_t*>(in), length);
  }

  // The bytes [offset, offset + length) in place, to be written, if they
  // lie in one page (creating it if it was never written), else nullptr.
  // Building a node there spares a copy through a scratch buffer. The
  // pointer stays valid for the object's life.
  uint8_t* WritableInOnePage(uint64_t offset, uint64_t length) {
    if (!SamePage(offset, length)) return nullptr;
    return WritablePage(offset >> kPageBits) + (offset & kPageMask);
  }

  // Hints that a read at `offset` comes later: a run's nodes are scattered
  // over gigabytes, so the page table entry is a miss to DRAM. Changes
  // nothing a read returns. (The bytes themselves are not prefetched: one
  // event ahead of the read, measured, the first line's stall only moved to
  // the prefetch, and all of a node's lines slowed the run.)
  void PrefetchTableEntry(uint64_t offset) const {
    __builtin_prefetch(&table_[offset >> kPageBits]);
  }

  // Pages written so far, 2^kPageBits bytes each.
  uint64_t pages() const { return pages_; }

  static constexpr int kPageBits = 10;

 private:
  static constexpr uint64_t kPageBytes = uint64_t{1} << kPageBits;
  static constexpr uint64_t kPageMask = kPageBytes - 1;
  // Arena pages faulted in at a time (256 KiB): larger chunks measured no
  // faster.
  static constexpr uint64_t kPrefaultPages = uint64_t{1} << (18 - kPageBits);

  static bool SamePage(uint64_t offset, uint64_t length) {
    return (offset & kPageMask) + length <= kPageBytes;
  }
  uint8_t* PageBytes(uint32_t slot) const { return arena_ + (uint64_t{slot - 1} << kPageBits); }
  uint8_t* WritablePage(uint64_t page) {
    if (table_[page] == 0) table_[page] = NewPage();
    return PageBytes(table_[page]);
  }
  uint32_t NewPage();
  // Cuts [offset, offset + length) at page edges: visit(offset, bytes
  // before it, bytes in its page) for each piece.
  template <typename Visit>
  static void ForEachPageRun(uint64_t offset, uint64_t length, Visit&& visit) {
    for (uint64_t done = 0; done < length;) {
      const uint64_t at = offset + done;
      const uint64_t run = std::min(length - done, kPageBytes - (at & kPageMask));
      visit(at, done, run);
      done += run;
    }
  }
  void ReadAcrossPages(uint64_t offset, uint8_t* out, uint64_t length) const;
  void WriteAcrossPages(uint64_t offset, const uint8_t* in, uint64_t length);

  uint64_t size_;
  uint64_t table_bytes_;
  // Page number -> 1 + its index among the written pages, 0 if never written.
  uint32_t* table_;
  uint64_t arena_bytes_;
  uint8_t* arena_;  // the written pages, in the order they were first written
  uint64_t pages_ = 0;
};

}  // namespace dmbench::rdma::sim
