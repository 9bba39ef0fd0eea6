// The entries an index is bulkloaded with, in ascending key order, read as a
// stream or by key range instead of held in one array: the paper's runs
// bulkload 800 million entries, 12.8 GB as (key, value) pairs, and a
// bulkloaded index whose nodes are built on first touch
// (rdma/deferred_content.h) reads only the ranges a run touches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dmbench::indexes {

using KeyValue = std::pair<uint64_t, uint64_t>;

// Keys are strictly ascending in [1, 2^64 - 2] (the indexes' user keys).
// Implementations must give the same entries on every call, and be safe to
// call from the thread that runs the index's clients at any time while an
// index bulkloaded from it is in use (a node built on first touch reads its
// range then).
class BulkloadSource {
 public:
  virtual ~BulkloadSource() = default;

  virtual uint64_t size() const = 0;
  // Calls `visit` for every entry, in ascending key order.
  virtual void ForEach(const std::function<void(const KeyValue&)>& visit) const = 0;
  // Calls `visit` with the keys at positions 0, n, 2n, ... of the ascending
  // order (a tree's leaf boundaries) and returns how many keys there are.
  // Throws std::invalid_argument if n is 0.
  uint64_t EveryNthKey(uint64_t n, const std::function<void(uint64_t)>& visit) const {
    if (n == 0) throw std::invalid_argument("EveryNthKey: n must be >= 1, got 0");
    return VisitEveryNthKey(n, visit);
  }
  // Replaces *out with the entries whose keys are in [from, to), ascending.
  virtual void Range(uint64_t from, uint64_t to, std::vector<KeyValue>* out) const = 0;
  // Range's entries written straight into a node's slots: entry i as two
  // 8-byte words, key then value, in host byte order, at out + i * stride
  // (stride >= 16), for i < capacity; returns how many entries the range
  // holds, all of them, so that a caller sees one it had no room for. A
  // simulated memory server builds each leaf a run first touches this way:
  // through the array Range fills, a leaf's build took half as many
  // instructions again (2,700 against 1,810 in a 10 M-key run).
  virtual uint64_t WriteRange(uint64_t from, uint64_t to, uint8_t* out, size_t stride,
                              uint64_t capacity) const {
    std::vector<KeyValue> entries;
    Range(from, to, &entries);
    for (size_t i = 0; i < entries.size() && i < capacity; ++i) {
      std::memcpy(out + i * stride, &entries[i].first, 8);
      std::memcpy(out + i * stride + 8, &entries[i].second, 8);
    }
    return entries.size();
  }

 protected:
  // EveryNthKey with n >= 1. A source that can count keys without visiting
  // each one (a bitmap) overrides it: at the paper's 800 M keys a visit per
  // key is seconds.
  virtual uint64_t VisitEveryNthKey(uint64_t n, const std::function<void(uint64_t)>& visit) const {
    uint64_t position = 0;
    ForEach([&](const KeyValue& entry) {
      if (position++ % n == 0) visit(entry.first);
    });
    return position;
  }
};

// Entries held in a sorted array (a trace's load file, a test's entries).
class SortedEntries final : public BulkloadSource {
 public:
  // Throws std::invalid_argument unless the keys are strictly ascending in
  // [1, 2^64 - 2].
  explicit SortedEntries(std::vector<KeyValue> sorted) : entries_(std::move(sorted)) {
    for (size_t i = 0; i < entries_.size(); ++i) {
      const uint64_t key = entries_[i].first;
      if (key < 1 || key > UINT64_MAX - 1 || (i > 0 && key <= entries_[i - 1].first)) {
        throw std::invalid_argument(
            "bulkload keys must be strictly ascending in [1, 2^64 - 2]; entry " +
            std::to_string(i) + " is " + std::to_string(key));
      }
    }
  }

  uint64_t size() const override { return entries_.size(); }
  void ForEach(const std::function<void(const KeyValue&)>& visit) const override {
    for (const KeyValue& entry : entries_) visit(entry);
  }
  void Range(uint64_t from, uint64_t to, std::vector<KeyValue>* out) const override {
    const auto by_key = [](const KeyValue& entry, uint64_t key) { return entry.first < key; };
    const auto begin = std::lower_bound(entries_.begin(), entries_.end(), from, by_key);
    const auto end = std::lower_bound(begin, entries_.end(), to, by_key);
    out->assign(begin, end);
  }

 private:
  std::vector<KeyValue> entries_;
};

}  // namespace dmbench::indexes
