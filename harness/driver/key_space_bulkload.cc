#include "harness/driver/key_space_bulkload.h"

namespace dmbench::driver {

KeySpaceBulkload::KeySpaceBulkload(const workloads::BulkloadedKeys& keys, uint64_t value_seed)
    : key_count_(keys.keys()),
      count_(keys.count()),
      value_seed_(value_seed),
      loaded_((keys.keys() + 63) / 64, 0) {
  // Walking the keys in order fills each word once, in order.
  for (uint64_t key = 1; key <= key_count_; ++key) {
    if (keys.Contains(key)) loaded_[(key - 1) / 64] |= uint64_t{1} << ((key - 1) % 64);
  }
}

}  // namespace dmbench::driver
