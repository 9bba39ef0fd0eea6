// What one index operation cost on the fabric.
//
// The substrate counts every verb into the client's current OpStats, so round
// trips per operation, write sizes and CAS failures come out of the substrate
// rather than out of hand-written counters in index code.
#pragma once

#include <cstdint>

namespace dmbench::rdma {

struct OpStats {
  uint64_t round_trips = 0;  // one per single verb or batch waited for
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t compare_and_swaps = 0;  // plain and masked
  uint64_t fetch_and_adds = 0;
  uint64_t failed_compare_and_swaps = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;  // WRITE payloads; atomics count as atomics

  uint64_t atomics() const { return compare_and_swaps + fetch_and_adds; }
  uint64_t verbs() const { return reads + writes + atomics(); }

  OpStats& operator+=(const OpStats& other) {
    round_trips += other.round_trips;
    reads += other.reads;
    writes += other.writes;
    compare_and_swaps += other.compare_and_swaps;
    fetch_and_adds += other.fetch_and_adds;
    failed_compare_and_swaps += other.failed_compare_and_swaps;
    bytes_read += other.bytes_read;
    bytes_written += other.bytes_written;
    return *this;
  }
  bool operator==(const OpStats&) const = default;
};

}  // namespace dmbench::rdma
