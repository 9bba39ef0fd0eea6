#include "harness/driver/key_space_bulkload.h"

#include <array>
#include <bit>
#include <exception>
#include <thread>

namespace dmbench::driver {
namespace {

// Below this many bitmap words (64 M keys) one thread fills the bitmap in
// well under a second, and tests and 10 M-key runs stay single-threaded.
constexpr uint64_t kParallelWords = uint64_t{1} << 20;
constexpr unsigned kMaxThreads = 8;

}  // namespace

KeySpaceBulkload::KeySpaceBulkload(const workloads::BulkloadedKeys& keys, uint64_t value_seed,
                                   unsigned threads)
    : key_count_(keys.keys()),
      count_(keys.count()),
      value_seed_(value_seed),
      loaded_((keys.keys() + 63) / 64, 0) {
  // At the paper's billion keys this pass is most of a run's set-up (15 s
  // on one core). Words are independent, so the machine's cores split them;
  // each word's bits are the same whichever thread computes them.
  const uint64_t words = loaded_.size();
  if (threads == 0) {
    threads = words < kParallelWords
                  ? 1
                  : std::clamp(std::thread::hardware_concurrency(), 1u, kMaxThreads);
  }
  std::vector<std::exception_ptr> failures(threads);
  std::vector<std::thread> helpers;
  const auto fill = [&](unsigned part) {
    try {
      FillWords(keys, words * part / threads, words * (part + 1) / threads);
    } catch (...) {
      failures[part] = std::current_exception();
    }
  };
  for (unsigned part = 1; part < threads; ++part) helpers.emplace_back(fill, part);
  fill(0);
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
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

void KeySpaceBulkload::FillWords(const workloads::BulkloadedKeys& keys, uint64_t from_word,
                                 uint64_t to_word) {
  // A word's 64 keys are inverted together (keys.RanksOf): bit b of the
  // bitmap is key b + 1, loaded iff its loading rank is below count_.
  std::array<uint64_t, 64> ranks;
  for (uint64_t word = from_word; word < to_word; ++word) {
    const uint64_t first = word * 64;
    const uint64_t keys_here = std::min<uint64_t>(64, key_count_ - first);
    keys.RanksOf(first + 1, keys_here, ranks.data());
    uint64_t bits = 0;
    for (uint64_t i = 0; i < keys_here; ++i) bits |= uint64_t{ranks[i] < count_} << i;
    loaded_[word] = bits;
  }
}

}  // namespace dmbench::driver
