#include "harness/driver/key_space_bulkload.h"

#include <array>

namespace dmbench::driver {

KeySpaceBulkload::KeySpaceBulkload(const workloads::BulkloadedKeys& keys, uint64_t value_seed)
    : key_count_(keys.keys()),
      count_(keys.count()),
      value_seed_(value_seed),
      loaded_((keys.keys() + 63) / 64, 0) {
  // Walking the keys in order fills each word once, in order; a word's 64
  // keys are inverted together (keys.RanksOf), the set-up's main cost.
  std::array<uint64_t, 64> ranks;
  for (uint64_t word = 0; word < loaded_.size(); ++word) {
    const uint64_t first = word * 64;
    const uint64_t keys_here = std::min<uint64_t>(64, key_count_ - first);
    keys.RanksOf(first + 1, keys_here, ranks.data());
    uint64_t bits = 0;
    for (uint64_t i = 0; i < keys_here; ++i) bits |= uint64_t{ranks[i] < count_} << i;
    loaded_[word] = bits;
  }
}

}  // namespace dmbench::driver
