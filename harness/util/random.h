// Deterministic pseudo-random numbers for simulation and workloads.
//
// Results must be bit-identical across runs, compilers and standard
// libraries, so we do not use std::*_distribution (whose algorithms are
// implementation-defined). xoshiro256** seeded through splitmix64 is small,
// fast and well studied (Blackman & Vigna, "Scrambled linear pseudorandom
// number generators", 2021).
#pragma once

#include <cstdint>

namespace dmbench {

// splitmix64: turns any 64-bit seed (including 0) into well-mixed state and
// derives independent child seeds from (seed, stream) pairs.
inline uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Seed for the independent stream `stream` of a run seeded with `seed`
// (one stream per client, per component, ...).
inline uint64_t DeriveSeed(uint64_t seed, uint64_t stream) {
  uint64_t state = seed ^ (stream * 0xD1B54A32D192ED03ULL);
  SplitMix64(state);
  return SplitMix64(state);
}

class Random {
 public:
  explicit Random(uint64_t seed) {
    uint64_t state = seed;
    for (uint64_t& word : state_) word = SplitMix64(state);
  }

  uint64_t NextU64() {
    const uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = RotateLeft(state_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double NextDouble() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }

  // Uniform in [0, bound) without modulo bias (Lemire, "Fast random integer
  // generation in an interval", 2019). bound must be > 0.
  uint64_t Uniform(uint64_t bound) {
    unsigned __int128 product = static_cast<unsigned __int128>(NextU64()) * bound;
    uint64_t low = static_cast<uint64_t>(product);
    if (low < bound) {
      const uint64_t threshold = -bound % bound;
      while (low < threshold) {
        product = static_cast<unsigned __int128>(NextU64()) * bound;
        low = static_cast<uint64_t>(product);
      }
    }
    return static_cast<uint64_t>(product >> 64);
  }

 private:
  static uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

}  // namespace dmbench
