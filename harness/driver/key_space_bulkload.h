// A generated key space's bulkload as an index reads it: the keys of [1, N]
// the loading permutation picks, in key order, each with its
// KeySpace::BulkloadValue, computed on demand rather than held (12.8 GB for
// the paper's 800 M bulkloaded keys); which keys, one bit each.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "indexes/common/bulkload_source.h"
#include "workloads/bulkloaded_keys.h"
#include "workloads/key_space.h"

namespace dmbench::driver {

// Which keys are loaded is decided once, in the constructor, into a bitmap of
// N bits (125 MB at the paper's 1 B keys): the shape pass walks every key
// anyway, and a node built on first touch then reads its range from the
// bitmap instead of inverting the loading permutation once per key (a fifth
// of a read-intensive simulation did that). The constructor may use several
// threads for a large key space, each with a bitmap of its own while it
// runs. Immutable after construction, so any thread may read it.
class KeySpaceBulkload final : public indexes::BulkloadSource {
 public:
  // `value_seed`: the run seed, as KeySpace::BulkloadValue takes it.
  // `threads`: how many fill the bitmap; 0 lets the key space's size decide
  // (one below 64 M keys, else the machine's cores, at most 4).
  KeySpaceBulkload(const workloads::BulkloadedKeys& keys, uint64_t value_seed,
                   unsigned threads = 0);

  uint64_t size() const override { return count_; }
  void ForEach(const std::function<void(const indexes::KeyValue&)>& visit) const override {
    VisitLoaded(1, key_count_ + 1, [&](uint64_t key) {
      visit({key, workloads::KeySpace::BulkloadValue(value_seed_, key)});
    });
  }
  void Range(uint64_t from, uint64_t to, std::vector<indexes::KeyValue>* out) const override {
    out->clear();
    VisitLoaded(from, to, [&](uint64_t key) {
      out->emplace_back(key, workloads::KeySpace::BulkloadValue(value_seed_, key));
    });
  }
  uint64_t WriteRange(uint64_t from, uint64_t to, uint8_t* out, size_t stride,
                      uint64_t capacity) const override {
    // The seed in a local: a store through `out` may alias *this, so a
    // member read in the loop was reloaded after every entry. Words whose
    // keys all fit take a loop with no check of the room. (Counted at 10 M
    // keys, read-intensive: 16 instructions an entry, all told, became 14;
    // every leaf a run first touches is written here.)
    const uint64_t seed = value_seed_;
    uint64_t count = 0;
    VisitLoadedWords(from, to, [&](uint64_t first_key, uint64_t bits) {
      const auto keys = static_cast<uint64_t>(std::popcount(bits));
      if (count + keys > capacity) {
        for (; bits != 0 && count < capacity; bits &= bits - 1, ++count, out += stride) {
          WriteEntry(first_key + static_cast<unsigned>(std::countr_zero(bits)), seed, out);
        }
        count += static_cast<uint64_t>(std::popcount(bits));
        return;
      }
      for (; bits != 0; bits &= bits - 1, out += stride) {
        WriteEntry(first_key + static_cast<unsigned>(std::countr_zero(bits)), seed, out);
      }
      count += keys;
    });
    return count;
  }

 private:
  // Calls `visit` for every loaded key in [from, to) ∩ [1, N], ascending.
  template <typename Visit>
  void VisitLoaded(uint64_t from, uint64_t to, Visit&& visit) const {
    VisitLoadedWords(from, to, [&](uint64_t first_key, uint64_t bits) {
      for (; bits != 0; bits &= bits - 1) {
        visit(first_key + static_cast<unsigned>(std::countr_zero(bits)));
      }
    });
  }
  // Calls visit(first_key, bits) for each bitmap word that holds loaded keys
  // of [from, to) ∩ [1, N], ascending: bit b of `bits` set for each such key
  // first_key + b.
  template <typename VisitWord>
  void VisitLoadedWords(uint64_t from, uint64_t to, VisitWord&& visit_word) const {
    // Bit b of the bitmap is key b + 1.
    const uint64_t begin = std::max<uint64_t>(from, 1) - 1;
    const uint64_t end = std::min(to, key_count_ + 1) - 1;
    if (to == 0 || begin >= end) return;
    // (A local for the same reason as WriteRange's seed.)
    const uint64_t* const loaded = loaded_.data();
    for (uint64_t word = begin / 64; word * 64 < end; ++word) {
      uint64_t bits = loaded[word];
      if (word == begin / 64) bits &= ~uint64_t{0} << (begin % 64);
      // Inside the loop end is not a multiple of 64 when the word crosses it.
      if ((word + 1) * 64 > end) bits &= (uint64_t{1} << (end % 64)) - 1;
      if (bits != 0) visit_word(word * 64 + 1, bits);
    }
  }
  static void WriteEntry(uint64_t key, uint64_t seed, uint8_t* out) {
    const uint64_t value = workloads::KeySpace::BulkloadValue(seed, key);
    std::memcpy(out, &key, 8);
    std::memcpy(out + 8, &value, 8);
  }

  // Counts each bitmap word's keys at once: at the paper's 800 M loaded
  // keys a call per key took 4 s of set-up.
  uint64_t VisitEveryNthKey(uint64_t n, const std::function<void(uint64_t)>& visit) const override;

  // Flips, in `bitmap`, the bits of the keys at loading positions
  // [from, to). Each key has one position, so a flip sets a bit of a bitmap
  // that starts empty and clears one of a bitmap that starts full.
  void FlipPositions(const workloads::BulkloadedKeys& keys, uint64_t from, uint64_t to,
                     std::vector<uint64_t>& bitmap) const;

  uint64_t key_count_;
  uint64_t count_;
  uint64_t value_seed_;
  std::vector<uint64_t> loaded_;
};

}  // namespace dmbench::driver
