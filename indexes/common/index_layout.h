// Where a tree keeps its well-known words in every memory server's index
// area (harness/rdma/memory_layout.h), and the global lock table's shape.
#pragma once

#include <cstdint>

#include "harness/rdma/memory_layout.h"

namespace dmbench::indexes {

struct IndexLayout {
  // On memory server 0: the packed GlobalAddress of the root node.
  static constexpr uint64_t kRootPointerOffset = rdma::MemoryLayout::kIndexAreaOffset;

  // The global lock table of a memory server: 256 KiB, the on-chip memory of
  // a ConnectX-5 (paper §4.3); the same size in host memory when on-chip
  // memory is off. 32768 locks of 64 bits, or 131072 of 16 bits.
  static constexpr uint64_t kLockTableBytes = 256 * 1024;
  static constexpr uint64_t kHostLockTableOffset = rdma::MemoryLayout::kIndexAreaOffset + 4096;
  static constexpr uint64_t kOnChipLockTableOffset = 0;
  static_assert(kHostLockTableOffset + kLockTableBytes <=
                    rdma::MemoryLayout::kIndexAreaOffset + rdma::MemoryLayout::kIndexAreaBytes,
                "the host lock table must fit the index area");
};

}  // namespace dmbench::indexes
