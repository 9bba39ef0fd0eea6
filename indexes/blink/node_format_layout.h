// What node_format.cc (decoding, checks) and node_format_encode.cc
// (encoding) share of a node's byte layout: the logical header's offsets,
// the padding pattern of wide keys and values, and the mapping of a logical
// offset to its physical byte. Included by those two files only.
//
// The functions are forced inline, as are the readers and writers built on
// them in each file: the lengths at their call sites are constants (1, 2 or
// 8 bytes), so each copy becomes a move instead of a call to memcpy (a
// node's decode and encode made tens of those calls, a tenth of a
// simulation's time).
#pragma once

#include <algorithm>
#include <cstdint>

#include "harness/util/random.h"
#include "indexes/blink/node_format.h"

namespace dmbench::indexes::node_layout {

constexpr uint32_t kLineBytes = NodeFormat::kLineBytes;
constexpr uint32_t kLinePayload = kLineBytes - 1;  // byte 0 of a line is its version
constexpr uint32_t kTrailerBytes = 8;

// Logical header fields, the same in every scheme.
constexpr uint32_t kLevelOffset = 0;
constexpr uint32_t kFreeOffset = 1;
constexpr uint32_t kCountOffset = 2;
constexpr uint32_t kSiblingOffset = 4;
constexpr uint32_t kLeftmostOffset = 12;
constexpr uint32_t kLowFenceOffset = 20;

constexpr uint64_t kKeySalt = 0x6B6579;    // "key"
constexpr uint64_t kValueSalt = 0x76616C;  // "val"

// A key or value `width` bytes wide that carries `word`, piece by piece:
// calls piece(offset, bytes, length) for the word at offset 0, then for each
// piece of the padding pattern after it (see NodeFormat::WritePadded). The
// one definition of the pattern, for every writer and for PaddingIntact.
template <typename Piece>
[[gnu::always_inline]] inline void ForEachPaddedPiece(uint64_t word, uint32_t width, uint64_t salt,
                                                      Piece&& piece) {
  piece(0, &word, 8);
  uint64_t state = word ^ salt;
  for (uint32_t offset = 8; offset < width; offset += 8) {
    const uint64_t pattern = SplitMix64(state);
    piece(offset, &pattern, std::min<uint32_t>(8, width - offset));
  }
}

}  // namespace dmbench::indexes::node_layout

namespace dmbench::indexes {

[[gnu::always_inline]] inline uint32_t NodeFormat::Physical(uint32_t logical) const {
  using node_layout::kLineBytes, node_layout::kLinePayload;
  if (consistency_ != Consistency::kCacheline) return lock_bytes_ + 1 + logical;
  return logical / kLinePayload * kLineBytes + 1 + logical % kLinePayload;
}

}  // namespace dmbench::indexes
