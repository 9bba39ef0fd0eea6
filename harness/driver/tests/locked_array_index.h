// A deliberately simple index, for tests only: one sorted array of entries
// in memory server 0, behind one global spin lock that every operation
// takes. It proves that the driver and the consistency checker need nothing
// of an index beyond indexes/index.h, and it is a reference any other index
// can be compared against; it is no model of anything.
//
// Remote layout: [lock word][entry count][entries (key, value)...].
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "harness/rdma/chunk_allocator.h"
#include "indexes/index.h"

namespace dmbench::driver::test_support {

class LockedArrayIndex final : public indexes::Index {
 public:
  using Index::Bulkload;
  void Bulkload(rdma::Client& client, std::shared_ptr<const indexes::BulkloadSource> source,
                double /*fill_factor*/) override {
    std::vector<Entry> sorted;
    source->ForEach([&](const indexes::KeyValue& entry) { sorted.push_back(entry); });
    capacity_ = 2 * sorted.size() + 4096;
    base_ = client.allocator().Allocate(client, kEntriesOffset + capacity_ * sizeof(Entry));
    const uint64_t unlocked = 0;
    client.Write(base_, &unlocked, 8);
    WriteArray(client, sorted);
  }

  bool Lookup(rdma::Client& client, uint64_t key, uint64_t* value,
              indexes::IndexOpStats& stats) override {
    bool found = false;
    Locked(client, stats, [&](std::vector<indexes::KeyValue>& entries) {
      const auto at = Find(entries, key);
      found = at != entries.end() && at->first == key;
      if (found) *value = at->second;
      return false;
    });
    return found;
  }

  void Upsert(rdma::Client& client, uint64_t key, uint64_t value,
              indexes::IndexOpStats& stats) override {
    Locked(client, stats, [&](std::vector<indexes::KeyValue>& entries) {
      const auto at = Find(entries, key);
      if (at != entries.end() && at->first == key) {
        at->second = value;
      } else {
        if (entries.size() == capacity_) throw std::runtime_error("locked array index is full");
        entries.insert(at, {key, value});
      }
      return true;
    });
  }

  bool Delete(rdma::Client& client, uint64_t key, indexes::IndexOpStats& stats) override {
    bool existed = false;
    Locked(client, stats, [&](std::vector<indexes::KeyValue>& entries) {
      const auto at = Find(entries, key);
      existed = at != entries.end() && at->first == key;
      if (existed) entries.erase(at);
      return existed;
    });
    return existed;
  }

  void RangeQuery(rdma::Client& client, uint64_t from, uint64_t to, size_t limit,
                  std::vector<indexes::KeyValue>* out, indexes::IndexOpStats& stats) override {
    out->clear();
    Locked(client, stats, [&](std::vector<indexes::KeyValue>& entries) {
      for (auto at = Find(entries, from); at != entries.end() && at->first < to; ++at) {
        if (limit != 0 && out->size() == limit) break;
        out->push_back(*at);
      }
      return false;
    });
  }

 private:
  using Entry = indexes::KeyValue;
  static constexpr uint64_t kEntriesOffset = 16;

  static std::vector<Entry>::iterator Find(std::vector<Entry>& entries, uint64_t key) {
    return std::lower_bound(entries.begin(), entries.end(), Entry{key, 0},
                            [](const Entry& a, const Entry& b) { return a.first < b.first; });
  }

  // Takes the lock, reads the array, lets `body` use it (writing it back if
  // `body` returns true) and releases the lock.
  template <typename Body>
  void Locked(rdma::Client& client, indexes::IndexOpStats& stats, Body body) {
    const uint64_t tag = client.location().index + 1;
    while (client.CompareAndSwap(base_, 0, tag) != 0) ++stats.lock_retries;
    uint64_t count = 0;
    client.Read(base_ + 8, &count, 8);
    std::vector<Entry> entries(count);
    if (count > 0) {
      client.Read(base_ + kEntriesOffset, entries.data(),
                  static_cast<uint32_t>(count * sizeof(Entry)));
    }
    if (body(entries)) WriteArray(client, entries);
    const uint64_t unlocked = 0;
    client.Write(base_, &unlocked, 8);
  }

  // The entry count and the entries, as the array's holder (or the bulkload).
  void WriteArray(rdma::Client& client, const std::vector<Entry>& entries) {
    const uint64_t count = entries.size();
    client.Write(base_ + 8, &count, 8);
    if (count > 0) {
      client.Write(base_ + kEntriesOffset, entries.data(),
                   static_cast<uint32_t>(count * sizeof(Entry)));
    }
  }

  rdma::GlobalAddress base_;
  uint64_t capacity_ = 0;
};

}  // namespace dmbench::driver::test_support
