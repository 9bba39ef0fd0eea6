// The speculative-lookup hints: direct-mapped, overwritten on a collision,
// forgotten only for their own key.
#include "indexes/blink/key_address_cache.h"

#include <gtest/gtest.h>

namespace dmbench::indexes {
namespace {

TEST(KeyAddressCache, RemembersFindsAndForgetsAKey) {
  KeyAddressCache cache(1024);
  EXPECT_FALSE(cache.Find(42).has_value());
  cache.Remember(42, {rdma::GlobalAddress::Host(1, 4096), 7});
  const std::optional<EntryHint> hint = cache.Find(42);
  ASSERT_TRUE(hint.has_value());
  EXPECT_EQ(hint->leaf, rdma::GlobalAddress::Host(1, 4096));
  EXPECT_EQ(hint->slot, 7u);
  EXPECT_FALSE(cache.Find(43).has_value());
  cache.Forget(42);
  EXPECT_FALSE(cache.Find(42).has_value());
}

TEST(KeyAddressCache, OneSlotHoldsTheLastKeyRememberedAndForgetsOnlyIt) {
  KeyAddressCache cache(1);
  cache.Remember(5, {rdma::GlobalAddress::Host(0, 64), 1});
  cache.Remember(6, {rdma::GlobalAddress::Host(0, 128), 2});
  EXPECT_FALSE(cache.Find(5).has_value());
  ASSERT_TRUE(cache.Find(6).has_value());
  cache.Forget(5);  // not there: the hint for 6 stays
  EXPECT_EQ(cache.Find(6)->slot, 2u);
}

TEST(KeyAddressCache, ManyKeysSpreadOverTheSlots) {
  constexpr uint64_t kSlots = 4096;
  KeyAddressCache cache(kSlots);
  for (uint64_t key = 1; key <= kSlots; ++key) {
    cache.Remember(key, {rdma::GlobalAddress::Host(0, key * 64), 0});
  }
  uint64_t kept = 0;
  for (uint64_t key = 1; key <= kSlots; ++key) kept += cache.Find(key).has_value() ? 1 : 0;
  // As many keys as slots, hashed: about 1 - 1/e of them keep a slot; adjacent
  // keys piling into few slots would keep far fewer.
  EXPECT_GT(kept, kSlots / 2);
  EXPECT_LT(kept, kSlots * 3 / 4);
}

}  // namespace
}  // namespace dmbench::indexes
