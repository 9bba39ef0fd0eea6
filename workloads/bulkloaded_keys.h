// Which keys of [1, N] a run's bulkload inserts, and with which values: a
// small copyable view (a permutation's key and two counts), so that an index
// that builds its nodes on first touch can read its entries after the run's
// KeySpace is gone, without holding them (800 M entries at the paper's
// scale).
#pragma once

#include <cstdint>

#include "workloads/key_scrambler.h"

namespace dmbench::workloads {

class BulkloadedKeys {
 public:
  // The first `count` keys of the permutation `loading` of [0, keys), plus one.
  BulkloadedKeys(uint64_t keys, uint64_t count, KeyScrambler loading)
      : keys_(keys), count_(count), loading_(loading) {}

  // False for keys outside [1, N].
  bool Contains(uint64_t key) const {
    return key >= 1 && key <= keys_ && loading_.Inverse(key - 1) < count_;
  }
  // The index-th bulkloaded key in no particular order, index < count().
  uint64_t At(uint64_t index) const { return loading_.Permute(index) + 1; }
  // bits[i] = At(first + i) - 1, the key's bit in a bitmap of [1, N], for
  // i < count; the loading order past count() goes on through the keys not
  // loaded (first + count <= N). Faster per key than At.
  void BitsAt(uint64_t first, uint64_t count, uint64_t* bits) const {
    loading_.PermuteRun(first, count, bits);
  }

  uint64_t keys() const { return keys_; }
  uint64_t count() const { return count_; }

 private:
  uint64_t keys_;
  uint64_t count_;
  KeyScrambler loading_;
};

}  // namespace dmbench::workloads
