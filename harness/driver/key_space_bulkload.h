// A generated key space's bulkload as an index reads it: the keys of [1, N]
// the loading permutation picks, in key order, each with its
// KeySpace::BulkloadValue, computed on demand rather than held (12.8 GB for
// the paper's 800 M bulkloaded keys).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "indexes/common/bulkload_source.h"
#include "workloads/bulkloaded_keys.h"
#include "workloads/key_space.h"

namespace dmbench::driver {

class KeySpaceBulkload final : public indexes::BulkloadSource {
 public:
  // `value_seed`: the run seed, as KeySpace::BulkloadValue takes it.
  KeySpaceBulkload(const workloads::BulkloadedKeys& keys, uint64_t value_seed)
      : keys_(keys), value_seed_(value_seed) {}

  uint64_t size() const override { return keys_.count(); }
  void ForEach(const std::function<void(const indexes::KeyValue&)>& visit) const override {
    ForEachKey([&](uint64_t key) {
      visit({key, workloads::KeySpace::BulkloadValue(value_seed_, key)});
    });
  }
  // A billion keys' values are 8% of the shape pass's time at the paper's scale.
  void ForEachKey(const std::function<void(uint64_t)>& visit) const override {
    // Walking the keys in order yields them sorted without a sort.
    for (uint64_t key = 1; key <= keys_.keys(); ++key) {
      if (keys_.Contains(key)) visit(key);
    }
  }
  void Range(uint64_t from, uint64_t to, std::vector<indexes::KeyValue>* out) const override {
    out->clear();
    for (uint64_t key = std::max<uint64_t>(from, 1); key < to && key <= keys_.keys(); ++key) {
      if (keys_.Contains(key)) {
        out->emplace_back(key, workloads::KeySpace::BulkloadValue(value_seed_, key));
      }
    }
  }

 private:
  workloads::BulkloadedKeys keys_;
  uint64_t value_seed_;
};

}  // namespace dmbench::driver
