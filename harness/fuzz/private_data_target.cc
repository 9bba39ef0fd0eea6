#include "harness/fuzz/private_data_target.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "harness/rdma/verbs/memory_server_info.h"

namespace dmbench::fuzz {

namespace {

using rdma::verbs::MemoryServerInfo;

// What a memory server could plausibly send: page-aligned regions of sizes
// `dmbench serve` registers.
MemoryServerInfo PlausibleInfo(Random& random) {
  MemoryServerInfo info;
  info.host.base = (random.NextU64() >> 20) << 12;
  info.host.bytes = (uint64_t{1} << 20) << random.Uniform(20);
  info.host.rkey = static_cast<uint32_t>(random.NextU64());
  info.on_chip_is_device_memory = random.Uniform(2) == 0;
  info.on_chip.base = info.on_chip_is_device_memory ? 0 : (random.NextU64() >> 20) << 12;
  info.on_chip.bytes = random.Uniform(4) == 0 ? 0 : 1024 << random.Uniform(10);
  info.on_chip.rkey = static_cast<uint32_t>(random.NextU64());
  info.device_memory_offered = random.Uniform(2) == 0 ? 0 : 262144;
  info.device_memory_errno =
      static_cast<uint32_t>(random.Uniform(4) == 0 ? random.Uniform(200) : 0);
  info.failed_cas_writes_back = random.Uniform(2) == 0;
  return info;
}

std::vector<uint8_t> Damaged(Random& random, std::vector<uint8_t> bytes) {
  switch (random.Uniform(6)) {
    case 0:  // random bytes of any length
      bytes.resize(random.Uniform(2 * MemoryServerInfo::kEncodedBytes));
      for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(random.NextU64());
      break;
    case 1:  // truncated
      bytes.resize(random.Uniform(bytes.size()));
      break;
    case 2:  // a few bytes flipped
      for (uint64_t i = 1 + random.Uniform(4); i > 0; --i) {
        bytes[random.Uniform(bytes.size())] ^= static_cast<uint8_t>(1 + random.Uniform(255));
      }
      break;
    case 3:  // another magic
      bytes[random.Uniform(4)] ^= 0x20;
      break;
    case 4: {  // another protocol version
      const uint16_t version = static_cast<uint16_t>(random.NextU64());
      std::memcpy(&bytes[4], &version, sizeof(version));
      break;
    }
    default:  // padded, as rdma_cm may pad private data
      bytes.resize(bytes.size() + random.Uniform(200), random.Uniform(4) == 0 ? 0xff : 0);
  }
  return bytes;
}

class PrivateDataTarget final : public FuzzTarget {
 public:
  std::string_view kind() const override { return "private-data"; }
  CaseResult RunCase(Random& random, std::string& input) override {
    const std::vector<uint8_t> bytes = Damaged(random, PlausibleInfo(random).Encode());
    input.clear();
    for (uint8_t byte : bytes) {
      static constexpr char kHex[] = "0123456789abcdef";
      input += kHex[byte >> 4];
      input += kHex[byte & 15];
    }
    return Attempt([&] {
      // Decode must not read past what it was given: a copy of exactly
      // that many bytes lets the sanitizers see an overread.
      const auto data = std::make_unique<uint8_t[]>(bytes.size());
      std::memcpy(data.get(), bytes.data(), bytes.size());
      const MemoryServerInfo info = MemoryServerInfo::Decode(data.get(), bytes.size(), "peer");
      info.FallbackReason();
      // Accepted data is what an encoder of this version wrote, byte for byte.
      const std::vector<uint8_t> again = info.Encode();
      if (!std::equal(again.begin(), again.end(), bytes.begin())) {
        throw PropertyFailure{"accepted data that this version's encoder would not write"};
      }
    });
  }
};

}  // namespace

std::unique_ptr<FuzzTarget> MakePrivateDataTarget() {
  return std::make_unique<PrivateDataTarget>();
}

}  // namespace dmbench::fuzz
