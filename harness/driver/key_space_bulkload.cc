#include "harness/driver/key_space_bulkload.h"

#include <algorithm>
#include <bit>
#include <exception>
#include <thread>

namespace dmbench::driver {
namespace {

// Below this many bitmap words (64 M keys) one thread fills the bitmap in
// well under a second, and tests and 10 M-key runs stay single-threaded.
constexpr uint64_t kParallelWords = uint64_t{1} << 20;
// Each thread past the first holds a bitmap of its own (125 MB at 1 B keys).
constexpr unsigned kMaxThreads = 4;

// Positions are flipped in rounds: their keys are computed, grouped by the
// 2^kRegionBits keys they fall in (128 KiB of bitmap), and flipped group by
// group. Flipped in position order, each key would be a cache and TLB miss in
// a bitmap of 125 MB. A round flips about four keys per bitmap line it
// loads: N / 128 positions for N keys (a line holds 512), rounded up to a
// power of two, from 1 M to 8 M (128 MB of buffers per thread). At 1 B
// keys, rounds of 1 M flipped half a key per line and took 8% more of the
// set-up's CPU time; 32 M took 14% less but held 1 GB more at the run's
// peak. (Rounds of 7.8 M, not a power of two, took 6% more than 8 M.)
constexpr int kRegionBits = 20;
constexpr uint64_t kMinRoundPositions = uint64_t{1} << 20;
constexpr uint64_t kMaxRoundPositions = uint64_t{1} << 23;

}  // namespace

KeySpaceBulkload::KeySpaceBulkload(const workloads::BulkloadedKeys& keys, uint64_t value_seed,
                                   unsigned threads)
    : key_count_(keys.keys()), count_(keys.count()), value_seed_(value_seed) {
  // The loaded keys are the first count_ of the loading order. Whichever side
  // is smaller is computed: at the usual 80% loaded, the 20% not loaded are
  // cleared from a full bitmap, a fifth of the work of deciding every key
  // (at the paper's billion keys, most of a run's set-up).
  const bool clear = count_ > key_count_ / 2;
  const uint64_t from = clear ? count_ : 0;
  const uint64_t to = clear ? key_count_ : count_;
  std::vector<uint64_t> initial((key_count_ + 63) / 64, clear ? ~uint64_t{0} : 0);
  if (clear && key_count_ % 64 != 0) initial.back() = (uint64_t{1} << (key_count_ % 64)) - 1;

  const uint64_t words = initial.size();
  if (threads == 0) {
    threads = words < kParallelWords
                  ? 1
                  : std::clamp(std::thread::hardware_concurrency(), 1u, kMaxThreads);
  }
  // Thread 0 flips loaded_ itself, the others bitmaps of their own that are
  // then merged into it (an AND of the cleared, an OR of the set): bits of one
  // word would otherwise race.
  std::vector<std::vector<uint64_t>> bitmaps(threads);
  for (unsigned part = 1; part < threads; ++part) bitmaps[part] = initial;
  bitmaps[0] = std::move(initial);
  std::vector<std::exception_ptr> failures(threads);
  std::vector<std::thread> helpers;
  const auto flip = [&](unsigned part) {
    try {
      FlipPositions(keys, from + (to - from) * part / threads,
                    from + (to - from) * (part + 1) / threads, bitmaps[part]);
    } catch (...) {
      failures[part] = std::current_exception();
    }
  };
  for (unsigned part = 1; part < threads; ++part) helpers.emplace_back(flip, part);
  flip(0);
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  loaded_ = std::move(bitmaps[0]);
  for (unsigned part = 1; part < threads; ++part) {
    for (uint64_t word = 0; word < words; ++word) {
      loaded_[word] =
          clear ? loaded_[word] & bitmaps[part][word] : loaded_[word] | bitmaps[part][word];
    }
    std::vector<uint64_t>().swap(bitmaps[part]);
  }
}

void KeySpaceBulkload::FlipPositions(const workloads::BulkloadedKeys& keys, uint64_t from,
                                     uint64_t to, std::vector<uint64_t>& bitmap) const {
  if (from >= to) return;
  const uint64_t round =
      std::min(std::clamp(std::bit_ceil(key_count_ / 128), kMinRoundPositions, kMaxRoundPositions),
               to - from);
  std::vector<uint64_t> bits(round);
  std::vector<uint64_t> grouped(round);
  // starts[g] = where region g's keys go in `grouped`, once counted.
  std::vector<uint64_t> starts((key_count_ >> kRegionBits) + 2);
  for (uint64_t first = from; first < to; first += round) {
    const uint64_t count = std::min(round, to - first);
    keys.BitsAt(first, count, bits.data());
    std::fill(starts.begin(), starts.end(), 0);
    for (uint64_t i = 0; i < count; ++i) ++starts[(bits[i] >> kRegionBits) + 1];
    for (size_t region = 1; region < starts.size(); ++region) starts[region] += starts[region - 1];
    for (uint64_t i = 0; i < count; ++i) grouped[starts[bits[i] >> kRegionBits]++] = bits[i];
    for (uint64_t i = 0; i < count; ++i) {
      bitmap[grouped[i] / 64] ^= uint64_t{1} << (grouped[i] % 64);
    }
  }
}

uint64_t KeySpaceBulkload::VisitEveryNthKey(uint64_t n,
                                            const std::function<void(uint64_t)>& visit) const {
  uint64_t before = 0;  // loaded keys in the words before this one
  uint64_t next = 0;    // the position of the next key to visit
  for (uint64_t word = 0; word < loaded_.size(); ++word) {
    const uint64_t here = static_cast<uint64_t>(std::popcount(loaded_[word]));
    // bits holds this word's loaded keys from the rank-th on.
    uint64_t bits = loaded_[word];
    uint64_t rank = 0;
    for (; next < before + here; next += n) {
      for (; rank < next - before; ++rank) bits &= bits - 1;
      visit(word * 64 + static_cast<uint64_t>(std::countr_zero(bits)) + 1);
    }
    before += here;
  }
  return before;
}

}  // namespace dmbench::driver
