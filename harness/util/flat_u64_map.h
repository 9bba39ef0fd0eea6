// A hash map from 64-bit keys to 64-bit values, held in one array: open
// addressing, linear probing, deletion by backward shift (no tombstones).
//
// Built for maps of millions of entries that are filled once and torn down
// once, such as the index caches' address lookup at the paper's 1 B keys:
// std::unordered_map allocates a node per entry, so building and freeing
// eight caches of 400 K entries each cost seconds of allocator time and a
// cache miss per probe through the bucket's node.
//
// Any key may be stored. The value kNoValue marks an empty slot, so it may
// not be stored; Find returns it for a missing key. Not thread-safe; the
// owner locks.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace dmbench {

class FlatU64Map {
 public:
  static constexpr uint64_t kNoValue = UINT64_MAX;

  // The value stored under `key`, or kNoValue.
  uint64_t Find(uint64_t key) const {
    if (size_ == 0) return kNoValue;
    for (size_t at = Home(key);; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (slot.value == kNoValue) return kNoValue;
      if (slot.key == key) return slot.value;
    }
  }

  // Stores `value` under `key`, replacing what was there. `value` must not be
  // kNoValue.
  void Put(uint64_t key, uint64_t value) {
    if (value == kNoValue) throw std::invalid_argument("FlatU64Map: kNoValue cannot be stored");
    // At most three quarters full, so that a miss ends after a few probes.
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
    for (size_t at = Home(key);; at = (at + 1) & mask_) {
      Slot& slot = slots_[at];
      if (slot.value == kNoValue) {
        slot = {key, value};
        ++size_;
        return;
      }
      if (slot.key == key) {
        slot.value = value;
        return;
      }
    }
  }

  // Removes `key`; returns whether it was there.
  bool Erase(uint64_t key) {
    if (size_ == 0) return false;
    size_t hole = Home(key);
    while (true) {
      if (slots_[hole].value == kNoValue) return false;
      if (slots_[hole].key == key) break;
      hole = (hole + 1) & mask_;
    }
    // Pull back every later entry of the run that may live in the hole: one
    // whose home is not after the hole, going around the array. Lookups then
    // never meet an empty slot before their key.
    for (size_t next = (hole + 1) & mask_; slots_[next].value != kNoValue;
         next = (next + 1) & mask_) {
      const size_t home = Home(slots_[next].key);
      if (((next - home) & mask_) >= ((next - hole) & mask_)) {
        slots_[hole] = slots_[next];
        hole = next;
      }
    }
    slots_[hole].value = kNoValue;
    --size_;
    return true;
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    uint64_t value = kNoValue;
  };

  // Fibonacci hashing: the multiply spreads keys that differ in low or high
  // bits alike (packed addresses differ mostly in their offset bits), and the
  // top bits are the best mixed.
  size_t Home(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    const size_t capacity = old.empty() ? 16 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.value != kNoValue) Put(slot.key, slot.value);
    }
  }

  std::vector<Slot> slots_;  // a power of two in size, or empty
  size_t mask_ = 0;
  unsigned shift_ = 64;  // 64 - log2(slots_.size()); Home is used only once slots exist
  size_t size_ = 0;
};

}  // namespace dmbench
