#include "harness/util/flat_u64_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace dmbench {
namespace {

TEST(FlatU64Map, AnEmptyMapFindsNothing) {
  FlatU64Map map;
  EXPECT_EQ(map.Find(0), FlatU64Map::kNoValue);
  EXPECT_EQ(map.Find(42), FlatU64Map::kNoValue);
  EXPECT_FALSE(map.Erase(42));
  EXPECT_EQ(map.size(), 0u);
}

TEST(FlatU64Map, PutReplacesAndEraseRemoves) {
  FlatU64Map map;
  map.Put(0, 7);  // key 0 is an ordinary key
  map.Put(UINT64_MAX, 8);
  map.Put(0, 9);
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(map.Find(0), 9u);
  EXPECT_EQ(map.Find(UINT64_MAX), 8u);
  EXPECT_TRUE(map.Erase(0));
  EXPECT_FALSE(map.Erase(0));
  EXPECT_EQ(map.Find(0), FlatU64Map::kNoValue);
  EXPECT_EQ(map.Find(UINT64_MAX), 8u);
  EXPECT_EQ(map.size(), 1u);
}

TEST(FlatU64Map, TheEmptyMarkerCannotBeStored) {
  FlatU64Map map;
  EXPECT_THROW(map.Put(1, FlatU64Map::kNoValue), std::invalid_argument);
  EXPECT_EQ(map.size(), 0u);
}

// Twelve keys fill three quarters of the first 16-slot array. Random keys,
// because Fibonacci hashing spreads an arithmetic series without a single
// collision; these form probe runs, and erasing from their middles must keep
// every later key reachable.
TEST(FlatU64Map, ErasingInsideProbeRunsKeepsTheRestFindable) {
  std::mt19937_64 random(1);
  std::vector<uint64_t> keys(12);
  for (uint64_t& key : keys) key = random();
  FlatU64Map map;
  for (uint64_t i = 0; i < keys.size(); ++i) map.Put(keys[i], i);
  for (uint64_t i = 0; i < keys.size(); i += 3) ASSERT_TRUE(map.Erase(keys[i]));
  for (uint64_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(map.Find(keys[i]), i % 3 == 0 ? FlatU64Map::kNoValue : i) << i;
  }
  EXPECT_EQ(map.size(), 8u);
}

// Against std::unordered_map over a long random mix of puts and erases on a
// small key range, so that runs wrap around the array and the map grows.
TEST(FlatU64Map, AgreesWithAStandardMapUnderRandomPutsAndErases) {
  FlatU64Map map;
  std::unordered_map<uint64_t, uint64_t> expected;
  std::mt19937_64 random(7);
  for (int step = 0; step < 200000; ++step) {
    // Packed-address-like keys: a few servers, offsets in node strides.
    const uint64_t key = ((random() % 4) << 48) | ((random() % 3000) * 1024);
    if (random() % 3 == 0) {
      EXPECT_EQ(map.Erase(key), expected.erase(key) == 1);
    } else {
      const uint64_t value = random() % 1000000;
      map.Put(key, value);
      expected[key] = value;
    }
    if (step % 1000 == 0) {
      ASSERT_EQ(map.size(), expected.size());
      for (const auto& [k, v] : expected) ASSERT_EQ(map.Find(k), v);
    }
  }
  ASSERT_EQ(map.size(), expected.size());
  for (uint64_t offset = 0; offset < 3000; ++offset) {
    for (uint64_t server = 0; server < 4; ++server) {
      const uint64_t key = (server << 48) | (offset * 1024);
      const auto it = expected.find(key);
      EXPECT_EQ(map.Find(key), it == expected.end() ? FlatU64Map::kNoValue : it->second);
    }
  }
}

}  // namespace
}  // namespace dmbench
