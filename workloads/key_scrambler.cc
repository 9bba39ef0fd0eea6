#include "workloads/key_scrambler.h"

// Inlined: the round function hashes 8 bytes several times per key, and the
// library's out-of-line entry point with its length dispatch cost more than
// the hash itself (a quarter of a read-intensive simulation, which builds
// leaves on first touch). The same header's code, so the same hashes.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <bit>
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

uint64_t KeyScrambler::RoundFunction(size_t round, uint64_t half) const {
  if (!round_table_.empty()) return round_table_[(round << half_bits_) | half];
  return HashedRoundFunction(round, half);
}

uint64_t KeyScrambler::Encrypt(uint64_t block) const {
  uint64_t left = block >> half_bits_;
  uint64_t right = block & half_mask_;
  for (size_t round = 0; round < kRounds; ++round) {
    const uint64_t next_right = left ^ RoundFunction(round, right);
    left = right;
    right = next_right;
  }
  return (left << half_bits_) | right;
}

uint64_t KeyScrambler::Decrypt(uint64_t block) const {
  uint64_t left = block >> half_bits_;
  uint64_t right = block & half_mask_;
  for (size_t step = 1; step <= kRounds; ++step) UndoRound(kRounds - step, left, right);
  return (left << half_bits_) | right;
}

void KeyScrambler::UndoRound(size_t round, uint64_t& left, uint64_t& right) const {
  const uint64_t previous_left = right ^ RoundFunction(round, left);
  right = left;
  left = previous_left;
}

// Cycle-walking: the network permutes the whole 2^(2*half_bits) domain, so following its cycle
// from an in-range value must come back into [0, n); the first in-range value is the image.
uint64_t KeyScrambler::Permute(uint64_t rank) const {
  CheckInRange(rank, n_, "rank");
  uint64_t block = rank;
  do {
    block = Encrypt(block);
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

void KeyScrambler::InverseRun(uint64_t first, uint64_t count, uint64_t* out) const {
  if (count == 0) return;
  CheckInRange(first, n_, "key");
  if (count > n_ - first) {
    throw std::out_of_range("KeyScrambler: a run of " + std::to_string(count) + " keys from " +
                            std::to_string(first) + " passes the end of [0, " + std::to_string(n_) +
                            ")");
  }
  if (!round_table_.empty()) {
    // Table rounds are short chains of loads: independent iterations let the
    // processor overlap keys by itself, and lanes kept on the stack only
    // slowed that down.
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t block = first + i;
      do {
        block = Decrypt(block);
      } while (block >= n_);
      out[i] = block;
    }
    return;
  }
  // Eight lanes measured fastest on x86-64 (four and sixteen both slower).
  constexpr size_t kLanes = 8;
  std::array<uint64_t, kLanes> left{};
  std::array<uint64_t, kLanes> right{};
  std::array<uint64_t, kLanes> position{};
  uint64_t next = 0;
  size_t active = 0;
  const auto load = [&](size_t lane) {
    left[lane] = (first + next) >> half_bits_;
    right[lane] = (first + next) & half_mask_;
    position[lane] = next++;
  };
  for (; active < kLanes && next < count; ++active) load(active);
  while (active > 0) {
    // Every lane runs the network, idle ones included: a fixed trip count
    // lets the compiler interleave the lanes' chains.
    for (size_t step = 1; step <= kRounds; ++step) {
      for (size_t lane = 0; lane < kLanes; ++lane)
        UndoRound(kRounds - step, left[lane], right[lane]);
    }
    for (size_t lane = 0; lane < active;) {
      const uint64_t block = (left[lane] << half_bits_) | right[lane];
      if (block >= n_) {  // the walk goes on from here
        left[lane] = block >> half_bits_;
        right[lane] = block & half_mask_;
        ++lane;
        continue;
      }
      out[position[lane]] = block;
      if (next < count) {
        load(lane++);
        continue;
      }
      // No key left to start: the last active lane takes this one's place.
      --active;
      left[lane] = left[active];
      right[lane] = right[active];
      position[lane] = position[active];
    }
  }
}

}  // namespace dmbench::workloads
