// A generated key space's bulkload, as an index reads it: the stream, the
// keys-only stream and the ranges all give the KeySpace's own entries.
#include "harness/driver/key_space_bulkload.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "workloads/key_space.h"
#include "workloads/workload_spec.h"

namespace dmbench::driver {
namespace {

TEST(KeySpaceBulkload, StreamsKeysAndRangesAgreeWithTheKeySpace) {
  workloads::WorkloadSpec spec;
  spec.keys = 5000;
  const workloads::KeySpace key_space(spec, 7);
  const KeySpaceBulkload source(key_space.bulkloaded(), 7);
  const std::vector<indexes::KeyValue> expected = key_space.BulkloadEntries(7);
  ASSERT_EQ(source.size(), expected.size());
  ASSERT_EQ(expected.size(), spec.BulkloadCount());

  std::vector<indexes::KeyValue> streamed;
  source.ForEach([&](const indexes::KeyValue& entry) { streamed.push_back(entry); });
  EXPECT_EQ(streamed, expected);

  std::vector<uint64_t> keys;
  source.ForEachKey([&](uint64_t key) { keys.push_back(key); });
  ASSERT_EQ(keys.size(), expected.size());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(keys[i], expected[i].first) << i;

  std::vector<indexes::KeyValue> range;
  const uint64_t from = expected[100].first, to = expected[200].first;
  source.Range(from, to, &range);
  EXPECT_EQ(range, std::vector<indexes::KeyValue>(expected.begin() + 100, expected.begin() + 200));
}

}  // namespace
}  // namespace dmbench::driver
