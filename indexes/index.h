// The operations every index offers, and all that the driver, the micro
// benchmarks and the consistency checker may use of one. An index lives in
// the memory servers' memory; this object is a compute-side handle to it
// that keeps the compute servers' state (caches, local lock tables).
//
// Threads: one Index serves every client of its process. Lookup, Upsert,
// Delete and RangeQuery may run concurrently from different clients, each
// with its own `stats`; Bulkload runs from one client while no other client
// uses the index. A client is used by one thread (or coroutine) at a time.
//
// Keys are in [kMinUserKey, kMaxUserKey]; values are any 64-bit word. Every operation is
// linearizable, except that a range query is not atomic with concurrent writes: it returns every
// key that existed throughout the query and no key that never existed during it (paper §4.4). An
// operation that cannot complete throws (rdma::VerbError, std::runtime_error) rather than return a
// wrong answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "harness/rdma/client.h"
#include "indexes/common/bulkload_source.h"
#include "indexes/common/index_op_stats.h"

namespace dmbench::indexes {

// 0 and UINT64_MAX are left to indexes as sentinels (empty slot, +infinity).
constexpr uint64_t kMinUserKey = 1;
constexpr uint64_t kMaxUserKey = UINT64_MAX - 1;

class Index {
 public:
  virtual ~Index() = default;

  // Builds the index from `source` (strictly ascending keys), leaves (or
  // their equivalent) filled to `fill_factor` in (0, 1]. The index may keep
  // `source` and read it while it is in use (to build nodes on first touch).
  virtual void Bulkload(rdma::Client& client, std::shared_ptr<const BulkloadSource> source,
                        double fill_factor) = 0;
  // The same from an array, which is copied.
  void Bulkload(rdma::Client& client, std::span<const KeyValue> sorted, double fill_factor) {
    Bulkload(client,
             std::make_shared<SortedEntries>(std::vector<KeyValue>(sorted.begin(), sorted.end())),
             fill_factor);
  }

  // Whether `key` is present; its value in *value if so.
  virtual bool Lookup(rdma::Client& client, uint64_t key, uint64_t* value, IndexOpStats& stats) = 0;
  virtual void Upsert(rdma::Client& client, uint64_t key, uint64_t value, IndexOpStats& stats) = 0;
  // Whether `key` was present.
  virtual bool Delete(rdma::Client& client, uint64_t key, IndexOpStats& stats) = 0;
  // Entries with keys in [from, to) in key order, at most `limit` (0: no
  // limit), replacing *out.
  virtual void RangeQuery(rdma::Client& client, uint64_t from, uint64_t to, size_t limit,
                          std::vector<KeyValue>* out, IndexOpStats& stats) = 0;

  // Hints that `client` will soon operate on `key`, `distance` operations
  // from now (1: its next): the index may bring the memory of this process
  // that the operation will read closer to the CPU, the farther ahead the
  // less of it (what it reads last needs what it reads first). Changes
  // nothing any operation returns, counts or costs in simulated time.
  virtual void Prefetch(const rdma::Client& client, uint64_t key, size_t distance) {
    (void)client;
    (void)key;
    (void)distance;
  }
};

}  // namespace dmbench::indexes
