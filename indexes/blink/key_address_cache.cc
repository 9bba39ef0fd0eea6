#include "indexes/blink/key_address_cache.h"

#include <stdexcept>

#include "harness/util/random.h"

namespace dmbench::indexes {

KeyAddressCache::KeyAddressCache(uint64_t entries) : slots_(entries) {
  static_assert(sizeof(Slot) == kEntryBytes);
  if (entries == 0) throw std::invalid_argument("a key-address cache needs at least one entry");
}

// A mixing hash, so that runs of adjacent keys do not crowd adjacent slots.
size_t KeyAddressCache::IndexOf(uint64_t key) const {
  uint64_t state = key;
  return static_cast<size_t>(SplitMix64(state) % slots_.size());
}

std::optional<EntryHint> KeyAddressCache::Find(uint64_t key) const {
  const size_t index = IndexOf(key);
  std::lock_guard lock(StripeOf(index));
  const Slot& slot = slots_[index];
  if (slot.key != key) return std::nullopt;
  return EntryHint{rdma::GlobalAddress::Unpack(slot.leaf), slot.slot};
}

void KeyAddressCache::Remember(uint64_t key, EntryHint hint) {
  const size_t index = IndexOf(key);
  std::lock_guard lock(StripeOf(index));
  slots_[index] = {key, hint.leaf.Pack(), hint.slot};
}

void KeyAddressCache::Forget(uint64_t key) {
  const size_t index = IndexOf(key);
  std::lock_guard lock(StripeOf(index));
  if (slots_[index].key == key) slots_[index] = Slot{};
}

}  // namespace dmbench::indexes
