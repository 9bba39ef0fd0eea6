#include "harness/rdma/sim/paged_bytes.h"

#include <sys/mman.h>

#include <algorithm>
#include <string>

#include "harness/rdma/errors.h"

namespace dmbench::rdma::sim {

PagedBytes::PagedBytes(uint64_t size)
    : size_(size), table_bytes_(((size + kPageBytes - 1) >> kPageBits) * sizeof(uint32_t)) {
  // Anonymous and unreserved, like the memory it describes: the table costs
  // the operating-system pages of the entries a run writes.
  void* mapping = mmap(nullptr, std::max<uint64_t>(table_bytes_, 1), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) {
    throw MemoryExhaustedError("cannot map the page table of a simulated memory server of " +
                               std::to_string(size >> 20) + " MiB; lower topology.host_memory_mib");
  }
  table_ = static_cast<uint32_t*>(mapping);
}

PagedBytes::~PagedBytes() { munmap(table_, std::max<uint64_t>(table_bytes_, 1)); }

uint32_t PagedBytes::NewPage() {
  if (pages_ % kSlabPages == 0) {
    // Value-initialized: a page starts zeroed, as the bytes it stands for read.
    slabs_.push_back(std::make_unique<uint8_t[]>(kSlabPages * kPageBytes));
  }
  if (pages_ >= UINT32_MAX) {
    throw MemoryExhaustedError("a simulated memory server wrote more than 4 TiB");
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
