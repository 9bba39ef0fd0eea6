// The address of a byte in disaggregated memory.
//
// Index code stores child and sibling pointers as 64-bit words in remote
// memory, so an address packs into 64 bits: a 16-bit memory-server id and a
// 48-bit offset. NIC on-chip memory (where Sherman keeps its lock table) is a
// separate, much smaller address space on the same server; such addresses are
// never stored in remote memory, so the memory space travels beside the packed
// word instead of stealing offset bits from it.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace dmbench::rdma {

enum class MemorySpace : uint8_t {
  kHost,    // the memory server's DRAM, reached by the NIC over PCIe
  kOnChip,  // the NIC's device memory: no PCIe on access
};

struct GlobalAddress {
  static constexpr int kOffsetBits = 48;
  static constexpr uint64_t kMaxOffset = (uint64_t{1} << kOffsetBits) - 1;

  uint16_t server = 0;
  MemorySpace space = MemorySpace::kHost;
  uint64_t offset = 0;

  static constexpr GlobalAddress Host(uint16_t server, uint64_t offset) {
    return {server, MemorySpace::kHost, offset};
  }
  static constexpr GlobalAddress OnChip(uint16_t server, uint64_t offset) {
    return {server, MemorySpace::kOnChip, offset};
  }
  // The packed word 0 is never a valid node: offset 0 of every server holds
  // the server's metadata (memory_layout.h).
  static constexpr GlobalAddress Null() { return {}; }
  constexpr bool IsNull() const {
    return server == 0 && space == MemorySpace::kHost && offset == 0;
  }

  // Only host addresses pack; see the file comment.
  constexpr bool Packs() const { return space == MemorySpace::kHost && offset <= kMaxOffset; }
  constexpr uint64_t Pack() const { return (uint64_t{server} << kOffsetBits) | offset; }
  static constexpr GlobalAddress Unpack(uint64_t word) {
    return Host(static_cast<uint16_t>(word >> kOffsetBits), word & kMaxOffset);
  }

  constexpr GlobalAddress operator+(uint64_t delta) const {
    return {server, space, offset + delta};
  }
  constexpr auto operator<=>(const GlobalAddress&) const = default;

  std::string ToString() const;
};

}  // namespace dmbench::rdma
