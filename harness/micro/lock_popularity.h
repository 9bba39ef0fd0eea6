// Which lock a lock microbenchmark's next operation takes (Sherman Figs. 2
// and 16), under one of two popularity laws:
//
//  - keys (key_space > 0), the authors' lock benchmark: a key is drawn
//    Zipfian over `key_space` keys and hashed to one of the locks. Sherman's
//    public code has a lock benchmark entry that takes a key, not a lock
//    (Tree::lock_bench hashes it: CityHash64(key) % kNumOfLock), and its
//    benchmark driver draws keys Zipfian over kKeySpace = 64 Mi
//    (test/benchmark.cpp). A lock's share is then the sum of its keys'
//    shares: the hottest lock takes about the hottest key's share,
//    1 / zeta(64 Mi) = 4.9% at theta 0.99, and the hot locks land in atomic
//    buckets by the hash, so two of them may share one.
//  - locks (key_space == 0): the locks themselves are the Zipfian ranks,
//    rank r being lock r. The hottest lock takes 1 / zeta(locks) of the
//    operations (9.8% of 10240 locks at theta 0.99), twice the keys' law.
//
// Any fixed hash gives the keys' law the same distribution; SplitMix64's
// finaliser stands in for CityHash64. Thread safety: Next() is const and
// all draw state lives in the caller's Random, so clients share one object.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "harness/util/random.h"
#include "workloads/zipfian_generator.h"

namespace dmbench::micro {

// Sherman's benchmark driver's key space (test/benchmark.cpp, kKeySpace).
inline constexpr uint64_t kShermanLockBenchKeySpace = uint64_t{64} << 20;

class LockPopularity {
 public:
  // Throws std::invalid_argument if locks == 0, theta is outside [0, 1), or
  // 0 < key_space < locks (some locks could never be taken).
  LockPopularity(uint32_t locks, double theta, uint64_t key_space)
      : locks_(locks),
        key_space_(Validated(locks, key_space)),
        zipfian_(key_space == 0 ? locks : key_space, theta) {}

  // A lock index in [0, locks).
  uint32_t Next(Random& random) const {
    uint64_t rank = zipfian_.Next(random);
    if (key_space_ == 0) return static_cast<uint32_t>(rank);
    return static_cast<uint32_t>(SplitMix64(rank) % locks_);
  }

 private:
  static uint64_t Validated(uint32_t locks, uint64_t key_space) {
    if (locks == 0) throw std::invalid_argument("lock popularity: locks must be at least 1");
    if (key_space != 0 && key_space < locks) {
      throw std::invalid_argument("lock popularity: the key space (" + std::to_string(key_space) +
                                  ") must be 0 (locks drawn directly) or at least the " +
                                  std::to_string(locks) + " locks");
    }
    return key_space;
  }

  uint32_t locks_;
  uint64_t key_space_;
  workloads::ZipfianGenerator zipfian_;
};

}  // namespace dmbench::micro
