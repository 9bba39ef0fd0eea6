// What a memory server tells each compute server when it accepts a
// connection (the private data of rdma_accept): where its two registered
// regions are and their keys. Fixed little-endian layout, versioned, so a
// compute server built from another commit fails loudly instead of reading
// garbage addresses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dmbench::rdma::verbs {

struct RemoteRegion {
  uint64_t base = 0;  // the remote address of offset 0 (0 for zero-based device memory)
  uint64_t bytes = 0;
  uint32_t rkey = 0;
};

struct MemoryServerInfo {
  RemoteRegion host;
  RemoteRegion on_chip;  // NIC device memory, or host memory standing in for it
  // False when the memory server's NIC has no device memory for it; then
  // why: the device's max_dm_size and ibv_alloc_dm's errno (0: not tried).
  bool on_chip_is_device_memory = false;
  uint64_t device_memory_offered = 0;
  uint32_t device_memory_errno = 0;
  // The device's failing CAS stores its word back (RdmaDevice::
  // FailedCasWritesBack), losing a WRITE from another QP that lands between.
  bool failed_cas_writes_back = false;

  // Why on-chip memory is host memory here, in words; empty when it is not.
  std::string FallbackReason() const;

  std::vector<uint8_t> Encode() const;
  // Throws VerbError naming `peer` when the data is short, foreign (its magic,
  // unknown flags, a region no address space holds) or from another
  // protocol version.
  static MemoryServerInfo Decode(const void* data, size_t length, const std::string& peer);

  static constexpr uint32_t kMagic = 0x444d4253;  // "DMBS"
  static constexpr uint16_t kVersion = 2;
  // The flags word's bits.
  static constexpr uint16_t kDeviceMemoryFlag = 1;
  static constexpr uint16_t kFailedCasWritesBackFlag = 2;
  static constexpr size_t kEncodedBytes = 4 + 2 + 2 + 8 + 8 + 4 + 8 + 8 + 4 + 8 + 4;
  // A region's offsets are 48 bits (GlobalAddress).
  static constexpr uint64_t kMaxRegionBytes = uint64_t{1} << 48;
};

}  // namespace dmbench::rdma::verbs
