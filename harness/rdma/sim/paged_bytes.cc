#include "harness/rdma/sim/paged_bytes.h"

#include <sys/mman.h>

#include <algorithm>
#include <string>

#include "harness/rdma/errors.h"

namespace dmbench::rdma::sim {

namespace {

// Anonymous, zero-filled and unreserved: it costs the operating-system pages
// a run writes. nullptr when the mapping fails.
void* MapLazily(uint64_t bytes) {
  void* mapping = mmap(nullptr, std::max<uint64_t>(bytes, 1), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return mapping == MAP_FAILED ? nullptr : mapping;
}

// Undoes MapLazily(bytes); null is left alone.
void Unmap(void* mapping, uint64_t bytes) {
  if (mapping != nullptr) munmap(mapping, std::max<uint64_t>(bytes, 1));
}

}  // namespace

PagedBytes::PagedBytes(uint64_t size)
    : size_(size),
      table_bytes_(((size + kPageBytes - 1) >> kPageBits) * sizeof(uint32_t)),
      arena_bytes_(((size + kPageBytes - 1) >> kPageBits) << kPageBits) {
  table_ = static_cast<uint32_t*>(MapLazily(table_bytes_));
  arena_ = static_cast<uint8_t*>(MapLazily(arena_bytes_));
  if (table_ == nullptr || arena_ == nullptr) {
    Unmap(table_, table_bytes_);
    Unmap(arena_, arena_bytes_);
    throw MemoryExhaustedError("cannot map a simulated memory server of " +
                               std::to_string(size >> 20) + " MiB; lower topology.host_memory_mib");
  }
}

PagedBytes::~PagedBytes() {
  Unmap(table_, table_bytes_);
  Unmap(arena_, arena_bytes_);
}

uint32_t PagedBytes::NewPage() {
  // The table has one entry per page of the space, so the arena, which holds
  // as many pages, cannot run out; slots are 32-bit.
  if (pages_ >= UINT32_MAX) {
    throw MemoryExhaustedError("a simulated memory server wrote more than 4 TiB");
  }
  // The arena fills from its start, so the operating-system pages ahead of
  // it are the next to be written: one madvise faults a chunk of them in,
  // where each would otherwise trap on its first write (3-5% of a 10 M-key
  // simulation). Only a hint: where the kernel refuses it (before Linux
  // 5.14, or short of memory), writes fault the pages in one by one, as
  // before.
  if (pages_ % kPrefaultPages == 0) {
    const uint64_t begin = pages_ << kPageBits;
    madvise(arena_ + begin, std::min(kPrefaultPages << kPageBits, arena_bytes_ - begin),
            MADV_POPULATE_WRITE);
  }
  return static_cast<uint32_t>(++pages_);
}

void PagedBytes::ReadAcrossPages(uint64_t offset, uint8_t* out, uint64_t length) const {
  ForEachPageRun(offset, length,
                 [&](uint64_t at, uint64_t done, uint64_t run) { Read(at, out + done, run); });
}

void PagedBytes::WriteAcrossPages(uint64_t offset, const uint8_t* in, uint64_t length) {
  ForEachPageRun(offset, length,
                 [&](uint64_t at, uint64_t done, uint64_t run) { Write(at, in + done, run); });
}

}  // namespace dmbench::rdma::sim
