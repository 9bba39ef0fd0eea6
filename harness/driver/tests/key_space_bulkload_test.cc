// A generated key space's bulkload, as an index reads it: the stream, the
// keys-only stream and the ranges all give the KeySpace's own entries.
#include "harness/driver/key_space_bulkload.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "indexes/common/tests/write_range_check.h"
#include "workloads/bulkloaded_keys.h"
#include "workloads/key_scrambler.h"
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

  // Every n-th key, for steps below, at and above a bitmap word's 64 keys.
  for (const uint64_t n : {uint64_t{1}, uint64_t{2}, uint64_t{37}, uint64_t{64}, uint64_t{65},
                           uint64_t{1000}, uint64_t{10000}}) {
    std::vector<uint64_t> keys;
    EXPECT_EQ(source.EveryNthKey(n, [&](uint64_t key) { keys.push_back(key); }), expected.size());
    std::vector<uint64_t> want;
    for (size_t i = 0; i < expected.size(); i += n) want.push_back(expected[i].first);
    EXPECT_EQ(keys, want) << "n " << n;
    // The base class's walk over ForEach (a sorted array of the same
    // entries uses it) gives the same.
    std::vector<uint64_t> walked;
    EXPECT_EQ(indexes::SortedEntries(expected).EveryNthKey(
                  n, [&](uint64_t key) { walked.push_back(key); }),
              expected.size());
    EXPECT_EQ(walked, want) << "n " << n;
  }
  EXPECT_THROW(source.EveryNthKey(0, [](uint64_t) {}), std::invalid_argument);
  EXPECT_THROW(indexes::SortedEntries(expected).EveryNthKey(0, [](uint64_t) {}),
               std::invalid_argument);

  std::vector<indexes::KeyValue> range;
  const uint64_t from = expected[100].first, to = expected[200].first;
  source.Range(from, to, &range);
  EXPECT_EQ(range, std::vector<indexes::KeyValue>(expected.begin() + 100, expected.begin() + 200));
}

// Ranges that start or end inside a bitmap word, on a word's edge, outside
// [1, N] or empty give exactly the loaded keys of [from, to), and so does
// WriteRange, which a leaf built on first touch is written with.
TEST(KeySpaceBulkload, RangesAtEveryEdgeGiveTheLoadedKeysOfTheRange) {
  workloads::WorkloadSpec spec;
  spec.keys = 1000;
  const workloads::KeySpace key_space(spec, 3);
  const KeySpaceBulkload source(key_space.bulkloaded(), 3);
  std::vector<indexes::KeyValue> range;
  const std::vector<uint64_t> edges = {0,   1,   2,   63,   64,   65,   127, 128,
                                       129, 500, 999, 1000, 1001, 1002, 5000};
  for (uint64_t from : edges) {
    for (uint64_t to : edges) {
      std::vector<indexes::KeyValue> expected;
      for (uint64_t key = from; key < to; ++key) {
        if (key_space.Bulkloaded(key)) {
          expected.emplace_back(key, workloads::KeySpace::BulkloadValue(3, key));
        }
      }
      source.Range(from, to, &range);
      ASSERT_EQ(range, expected) << "[" << from << ", " << to << ")";
      indexes::test_support::ExpectWriteRangeIsRange(source, from, to);
    }
  }
}

// Threads split the bitmap's words; whatever the split (parts of one word,
// of several, uneven), every key's bit is the key space's answer.
TEST(KeySpaceBulkload, ThreadsFillTheSameBitmapAsOne) {
  workloads::WorkloadSpec spec;
  spec.keys = 64 * 5 + 17;  // six words, the last partial
  const workloads::KeySpace key_space(spec, 11);
  for (const unsigned threads : {1u, 2u, 4u, 7u, 9u}) {
    const KeySpaceBulkload source(key_space.bulkloaded(), 11, threads);
    std::vector<indexes::KeyValue> range;
    source.Range(0, spec.keys + 2, &range);
    std::vector<uint64_t> keys;
    for (const indexes::KeyValue& entry : range) keys.push_back(entry.first);
    std::vector<uint64_t> expected;
    for (uint64_t key = 1; key <= spec.keys; ++key) {
      if (key_space.Bulkloaded(key)) expected.push_back(key);
    }
    EXPECT_EQ(keys, expected) << threads << " threads";
  }
}

// Whichever side the bitmap is computed from (the keys loaded when they are
// at most half, else the keys not loaded, cleared from a full bitmap), and
// whatever the threads and the regions the marks are grouped by (2^20 keys;
// the larger space spans three), each key's bit is BulkloadedKeys' answer.
TEST(KeySpaceBulkload, EveryLoadedFractionAndSplitGivesTheLoadingOrdersKeys) {
  for (const uint64_t keys : {uint64_t{1}, uint64_t{64 * 3 + 5}, uint64_t{2'500'000}}) {
    const workloads::KeyScrambler loading(keys, keys + 5);
    for (const uint64_t count :
         {uint64_t{0}, uint64_t{1}, keys / 2, keys / 2 + 1, keys * 4 / 5, keys - 1, keys}) {
      if (count > keys) continue;
      const workloads::BulkloadedKeys loaded(keys, count, loading);
      for (const unsigned threads : {1u, 2u, 3u}) {
        if (keys > 1'000'000 && threads == 2) continue;  // a second's checks each
        const KeySpaceBulkload source(loaded, 1, threads);
        ASSERT_EQ(source.size(), count);
        std::vector<indexes::KeyValue> range;
        source.Range(0, keys + 2, &range);
        ASSERT_EQ(range.size(), count) << keys << " keys, " << count << " loaded, " << threads;
        size_t next = 0;
        for (uint64_t key = 1; key <= keys; ++key) {
          const bool listed = next < range.size() && range[next].first == key;
          ASSERT_EQ(listed, loaded.Contains(key))
              << "key " << key << " of " << keys << ", " << count << " loaded, " << threads;
          next += listed ? 1 : 0;
        }
      }
    }
  }
}

}  // namespace
}  // namespace dmbench::driver
