#include "workloads/key_scrambler.h"

// Inlined: the round function hashes 8 bytes several times per key, and the
// library's out-of-line entry point with its length dispatch cost more than
// the hash itself (a quarter of a read-intensive simulation, which builds
// leaves on first touch). The same header's code, so the same hashes.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "harness/util/random.h"

namespace dmbench::workloads {
namespace {

// The round function hashes the in-memory bytes of a uint64_t; fixing the byte order keeps
// permutations (and so every run's key sequence) identical across machines.
static_assert(std::endian::native == std::endian::little,
              "KeyScrambler hashes native uint64_t bytes; add a byte swap for big-endian hosts");

void CheckInRange(uint64_t value, uint64_t n, const char* what) {
  if (value >= n) {
    throw std::out_of_range(std::string("KeyScrambler: ") + what + " " + std::to_string(value) +
                            " is outside [0, " + std::to_string(n) + ")");
  }
}

}  // namespace

KeyScrambler::KeyScrambler(uint64_t n, uint64_t seed) : n_(n), half_bits_(0), half_mask_(0) {
  if (n == 0) throw std::invalid_argument("KeyScrambler n must be >= 1, got 0");
  // A balanced network needs an even width, and at least one bit per half.
  const int bits = std::max(2, static_cast<int>(std::bit_width(n - 1)));
  half_bits_ = (bits + 1) / 2;
  half_mask_ = (uint64_t{1} << half_bits_) - 1;
  for (size_t round = 0; round < kRounds; ++round) {
    round_keys_[round] = DeriveSeed(seed, round);
  }
  if (half_bits_ <= kTabledHalfBits) {
    round_table_.resize(kRounds << half_bits_);
    for (size_t round = 0; round < kRounds; ++round) {
      for (uint64_t half = 0; half <= half_mask_; ++half) {
        round_table_[(round << half_bits_) | half] =
            static_cast<uint16_t>(HashedRoundFunction(round, half));
      }
    }
  }
}

uint64_t KeyScrambler::HashedRoundFunction(size_t round, uint64_t half) const {
  return XXH3_64bits_withSeed(&half, sizeof(half), round_keys_[round]) & half_mask_;
}

uint64_t KeyScrambler::TabledRoundFunction(size_t round, uint64_t half) const {
  if (!round_table_.empty()) return round_table_[(round << half_bits_) | half];
  return HashedRoundFunction(round, half);
}

template <bool kTabled>
uint64_t KeyScrambler::Encrypt(uint64_t block) const {
  uint64_t left = block >> half_bits_;
  uint64_t right = block & half_mask_;
  for (size_t round = 0; round < kRounds; ++round) {
    const uint64_t next_right =
        left ^ (kTabled ? TabledRoundFunction(round, right) : HashedRoundFunction(round, right));
    left = right;
    right = next_right;
  }
  return (left << half_bits_) | right;
}

uint64_t KeyScrambler::Decrypt(uint64_t block) const {
  uint64_t left = block >> half_bits_;
  uint64_t right = block & half_mask_;
  for (size_t step = 1; step <= kRounds; ++step) {
    const uint64_t previous_left = right ^ HashedRoundFunction(kRounds - step, left);
    right = left;
    left = previous_left;
  }
  return (left << half_bits_) | right;
}

// Cycle-walking: the network permutes the whole 2^(2*half_bits) domain, so following its cycle
// from an in-range value must come back into [0, n); the first in-range value is the image.
uint64_t KeyScrambler::Permute(uint64_t rank) const {
  CheckInRange(rank, n_, "rank");
  return WalkForward<false>(rank);
}

template <bool kTabled>
uint64_t KeyScrambler::WalkForward(uint64_t rank) const {
  uint64_t block = rank;
  do {
    block = Encrypt<kTabled>(block);
  } while (block >= n_);
  return block;
}

uint64_t KeyScrambler::Inverse(uint64_t key) const {
  CheckInRange(key, n_, "key");
  uint64_t block = key;
  do {
    block = Decrypt(block);
  } while (block >= n_);
  return block;
}

void KeyScrambler::PermuteRun(uint64_t first, uint64_t count, uint64_t* out) const {
  if (count == 0) return;
  CheckInRange(first, n_, "rank");
  if (count > n_ - first) {
    throw std::out_of_range("KeyScrambler: a run of " + std::to_string(count) + " ranks from " +
                            std::to_string(first) + " passes the end of [0, " + std::to_string(n_) +
                            ")");
  }
  // Where few values walk (the network's domain under 5/4 of the key space,
  // as at 1 B keys), a plain loop is fastest: its walk branch is predicted
  // and its iterations overlap. Elsewhere (at 100 M keys the domain is 2.7
  // times the key space, and most values walk on) it steps breadth first, in
  // batches: every value of the batch takes one step of its walk, then those
  // that left [0, n) step again. Each pass is a loop of independent chains,
  // and the walk's exits cost no branch: a value not yet done writes its
  // slot now and overwrites it later.
  const long double domain = std::ldexp(1.0L, 2 * half_bits_);
  if (domain * 4 < static_cast<long double>(n_) * 5) {
    for (uint64_t i = 0; i < count; ++i) out[i] = WalkForward<true>(first + i);
    return;
  }
  constexpr size_t kBatch = 256;
  std::array<uint64_t, kBatch> block{};
  std::array<uint32_t, kBatch> slot{};
  for (uint64_t base = 0; base < count; base += kBatch) {
    size_t pending = static_cast<size_t>(std::min<uint64_t>(kBatch, count - base));
    for (size_t i = 0; i < pending; ++i) {
      block[i] = first + base + i;
      slot[i] = static_cast<uint32_t>(i);
    }
    while (pending > 0) {
      for (size_t i = 0; i < pending; ++i) block[i] = Encrypt<true>(block[i]);
      size_t walking = 0;
      for (size_t i = 0; i < pending; ++i) {
        out[base + slot[i]] = block[i];
        block[walking] = block[i];
        slot[walking] = slot[i];
        walking += block[i] >= n_ ? 1 : 0;
      }
      pending = walking;
    }
  }
}

}  // namespace dmbench::workloads
