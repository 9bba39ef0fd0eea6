#include "indexes/common/crc32c.h"

#include <array>
#include <cstring>

namespace dmbench::indexes {

namespace {

constexpr uint32_t kPolynomial = 0x82F63B78;  // reflected Castagnoli polynomial

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? kPolynomial : 0);
    table[i] = crc;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kTable = MakeTable();

uint32_t SoftwareCrc32c(const uint8_t* data, size_t length) {
  uint32_t crc = ~0u;
  for (size_t i = 0; i < length; ++i) crc = (crc >> 8) ^ kTable[(crc ^ data[i]) & 0xFF];
  return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t HardwareCrc32c(const uint8_t* data, size_t length) {
  uint64_t crc = ~0u;
  while (length >= 8) {
    uint64_t word;
    std::memcpy(&word, data, 8);
    crc = __builtin_ia32_crc32di(crc, word);
    data += 8;
    length -= 8;
  }
  auto crc32 = static_cast<uint32_t>(crc);
  while (length-- > 0) crc32 = __builtin_ia32_crc32qi(crc32, *data++);
  return ~crc32;
}

bool HasHardwareCrc() {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

}  // namespace

uint32_t Crc32c(const void* data, size_t length) {
  const auto* bytes = static_cast<const uint8_t*>(data);
#if defined(__x86_64__)
  if (HasHardwareCrc()) return HardwareCrc32c(bytes, length);
#endif
  return SoftwareCrc32c(bytes, length);
}

}  // namespace dmbench::indexes
