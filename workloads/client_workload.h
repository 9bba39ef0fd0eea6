// One client's deterministic stream of operations.
//
// Each client draws from its own Random(DeriveSeed(seed, client_index)), so a client's stream
// depends only on (spec, seed, client index) and not on how clients interleave, with one
// exception: ycsb-d's new keys come from the KeySpace that all clients share, so which new keys
// a client inserts and reads depends on the order in which clients reach the shared counter.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "harness/util/random.h"
#include "workloads/key_space.h"
#include "workloads/operation_stream.h"
#include "workloads/workload_spec.h"
#include "workloads/zipfian_generator.h"

namespace dmbench::workloads {

class ClientWorkload : public OperationStream {
 public:
  // Values: see OperationStream::ValueOf.
  // `keys` must be built from the same spec (same key count and distribution) and outlive this.
  // Throws ConfigError for an invalid spec and std::invalid_argument for a mismatched KeySpace or
  // client_index >= clients.
  ClientWorkload(const WorkloadSpec& spec, KeySpace& keys, uint64_t seed, uint32_t client_index,
                 uint32_t clients);

  // Throws std::overflow_error after kMaxOperations operations.
  Operation Next() override;
  // A client's draws are its own, but for ycsb-d's, which claim new keys
  // and read the newest from the KeySpace every client shares.
  bool DrawsAheadUnchanged() const override { return !latest_; }

  uint32_t client_index() const { return client_index_; }

 private:
  // What this client issues: the spec's mix, or one side of range-write's split.
  enum class Role { kMix, kInsertOnly, kRangeOnly, kAlternate };

  OpType NextType();
  uint64_t DrawRank();
  uint64_t DrawKey() { return keys_.KeyOfRank(DrawRank()); }
  uint64_t DrawBulkloadedKey();
  uint64_t DrawLatestKey();

  KeySpace& keys_;
  std::shared_ptr<const ZipfianGenerator> zipfian_;
  KeyDistribution distribution_;
  uint64_t range_size_;
  uint32_t scan_max_;
  // ycsb-d: inserts create new keys, and lookups favour the newest.
  bool latest_;
  // ycsb-e: ranges are YCSB scans (a record count from a start key) rather than key intervals.
  bool scans_;
  Role role_;
  // Op types with a nonzero fraction and the cumulative fraction up to each.
  std::array<OpType, 5> types_{};
  std::array<double, 5> cumulative_{};
  size_t type_count_ = 0;
  uint32_t client_index_;
  Random rng_;
  uint64_t operations_ = 0;
};

}  // namespace dmbench::workloads
