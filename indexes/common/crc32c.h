// CRC32C (Castagnoli), the checksum FG+ keeps over every node.
//
// Uses the SSE4.2 crc32 instruction when the CPU has it (one node costs tens
// of nanoseconds, which matters for simulator speed since every FG+ read is
// checked) and a table otherwise; both give the standard CRC32C, checked
// against published test vectors.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dmbench::indexes {

uint32_t Crc32c(const void* data, size_t length);

}  // namespace dmbench::indexes
