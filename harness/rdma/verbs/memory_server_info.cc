#include "harness/rdma/verbs/memory_server_info.h"

#include <cstring>

#include "harness/rdma/errors.h"

namespace dmbench::rdma::verbs {

namespace {

template <typename T>
void Put(std::vector<uint8_t>& out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

template <typename T>
T Get(const uint8_t*& in) {
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(static_cast<T>(in[i]) << (8 * i));
  in += sizeof(T);
  return value;
}

}  // namespace

std::vector<uint8_t> MemoryServerInfo::Encode() const {
  std::vector<uint8_t> out;
  Put<uint32_t>(out, kMagic);
  Put<uint16_t>(out, kVersion);
  Put<uint16_t>(out,
                static_cast<uint16_t>((on_chip_is_device_memory ? kDeviceMemoryFlag : 0) |
                                      (failed_cas_writes_back ? kFailedCasWritesBackFlag : 0)));
  for (const RemoteRegion* region : {&host, &on_chip}) {
    Put<uint64_t>(out, region->base);
    Put<uint64_t>(out, region->bytes);
    Put<uint32_t>(out, region->rkey);
  }
  Put<uint64_t>(out, device_memory_offered);
  Put<uint32_t>(out, device_memory_errno);
  return out;
}

MemoryServerInfo MemoryServerInfo::Decode(const void* data, size_t length,
                                          const std::string& peer) {
  // rdma_cm may pad private data with zeros, so only a minimum is checked.
  if (data == nullptr || length < kEncodedBytes) {
    throw VerbError("memory server " + peer + " sent " + std::to_string(length) +
                    " bytes of connection data, expected at least " +
                    std::to_string(kEncodedBytes) + ": is it a dmbench serve?");
  }
  const uint8_t* in = static_cast<const uint8_t*>(data);
  if (Get<uint32_t>(in) != kMagic) {
    throw VerbError("memory server " + peer + " is not a dmbench serve (bad magic)");
  }
  const uint16_t version = Get<uint16_t>(in);
  if (version != kVersion) {
    throw VerbError("memory server " + peer + " speaks protocol version " +
                    std::to_string(version) + ", this dmbench speaks " + std::to_string(kVersion) +
                    ": run the same build everywhere");
  }
  MemoryServerInfo info;
  const uint16_t flags = Get<uint16_t>(in);
  if ((flags & ~(kDeviceMemoryFlag | kFailedCasWritesBackFlag)) != 0) {
    throw VerbError("memory server " + peer + " sent flags " + std::to_string(flags) +
                    " that protocol version " + std::to_string(kVersion) +
                    " does not have: is it a dmbench serve of this build?");
  }
  info.on_chip_is_device_memory = (flags & kDeviceMemoryFlag) != 0;
  info.failed_cas_writes_back = (flags & kFailedCasWritesBackFlag) != 0;
  for (RemoteRegion* region : {&info.host, &info.on_chip}) {
    region->base = Get<uint64_t>(in);
    region->bytes = Get<uint64_t>(in);
    region->rkey = Get<uint32_t>(in);
    // Offsets into a region are 48 bits (GlobalAddress), and its last byte
    // must have an address.
    const char* name = region == &info.host ? "host memory" : "on-chip memory";
    if (region->bytes > kMaxRegionBytes || region->base > UINT64_MAX - region->bytes) {
      throw VerbError("memory server " + peer + " offers " + name + " of " +
                      std::to_string(region->bytes) + " bytes at " + std::to_string(region->base) +
                      ", which no address space holds (at most 2^48 bytes, not past 2^64)");
    }
  }
  if (info.host.bytes == 0) {
    throw VerbError("memory server " + peer + " offers no host memory");
  }
  info.device_memory_offered = Get<uint64_t>(in);
  info.device_memory_errno = Get<uint32_t>(in);
  return info;
}

std::string MemoryServerInfo::FallbackReason() const {
  if (on_chip_is_device_memory) return "";
  const std::string why =
      device_memory_errno != 0
          ? "ibv_alloc_dm failed: " +
                std::string(std::strerror(static_cast<int>(device_memory_errno)))
          : "the device offers " + std::to_string(device_memory_offered) +
                " bytes of device memory (max_dm_size), " + std::to_string(on_chip.bytes) +
                " needed";
  return "no NIC device memory for on-chip locks (" + why + "); they are in host memory";
}

}  // namespace dmbench::rdma::verbs
