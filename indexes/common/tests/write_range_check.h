// One check for every BulkloadSource's WriteRange: it must write what Range
// gives, where the contract says, and nothing else.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "indexes/common/bulkload_source.h"

namespace dmbench::indexes::test_support {

// WriteRange(from, to) with room for every entry, for half, for none and for
// more than there are, at a leaf's 16- and 18-byte strides: each returns
// Range's count, writes Range's first entries as (key, value) words at their
// stride, and leaves every other byte as it was.
inline void ExpectWriteRangeIsRange(const BulkloadSource& source, uint64_t from, uint64_t to) {
  std::vector<KeyValue> expected;
  source.Range(from, to, &expected);
  const uint64_t count = expected.size();
  constexpr uint8_t kUntouched = 0xA5;
  for (const size_t stride : {size_t{16}, size_t{18}}) {
    for (const uint64_t capacity : {count, count / 2, uint64_t{0}, count + 3}) {
      std::vector<uint8_t> bytes((capacity + 1) * stride, kUntouched);
      ASSERT_EQ(source.WriteRange(from, to, bytes.data(), stride, capacity), count)
          << "[" << from << ", " << to << "), capacity " << capacity;
      std::vector<uint8_t> want(bytes.size(), kUntouched);
      for (uint64_t i = 0; i < std::min(count, capacity); ++i) {
        std::memcpy(want.data() + i * stride, &expected[i].first, 8);
        std::memcpy(want.data() + i * stride + 8, &expected[i].second, 8);
      }
      ASSERT_EQ(bytes, want) << "[" << from << ", " << to << "), stride " << stride << ", capacity "
                             << capacity;
    }
  }
}

}  // namespace dmbench::indexes::test_support
