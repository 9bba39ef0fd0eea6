// The fixed layout of every memory server's host memory.
//
// Chunks are handed out by a fetch-and-add on a counter at offset 0, so
// allocation is one-sided and works the same on every backend (paper §4.2.4
// uses an RPC; a counter needs no memory-server CPU at all).
#pragma once

#include <cstdint>

namespace dmbench::rdma {

struct MemoryLayout {
  // Bytes of chunks handed out so far; the next chunk starts at
  // kFirstChunkOffset + this value.
  static constexpr uint64_t kChunkCounterOffset = 0;
  // Words the substrate keeps for cluster-wide coordination (barriers).
  static constexpr uint64_t kSubstrateAreaOffset = 64;
  static constexpr uint64_t kSubstrateAreaBytes = 4096 - 64;
  // Free for the index: root pointer, a host-memory lock table of 256 KiB.
  static constexpr uint64_t kIndexAreaOffset = 4096;
  static constexpr uint64_t kIndexAreaBytes = (1 << 20) - 4096;
  static constexpr uint64_t kFirstChunkOffset = 1 << 20;
};

}  // namespace dmbench::rdma
