// What one index operation did beyond its verbs (which the substrate counts
// in rdma::OpStats): retries, lock handovers, splits, cache behaviour.
#pragma once

#include <cstdint>

namespace dmbench::indexes {

struct IndexOpStats {
  uint32_t read_retries = 0;       // re-reads of a node that failed its check
  uint32_t slow_read_retries = 0;  // re-reads because a READ outlasted the version wrap window
  uint32_t lock_retries = 0;       // failed CAS while acquiring a global lock
  uint32_t handovers = 0;          // locks received from a local predecessor
  uint32_t splits = 0;             // nodes split, at any level
  uint32_t cache_hits = 0;         // level-1 cache routed the operation
  uint32_t cache_misses = 0;
  uint32_t wrong_turns = 0;            // a cache or traversal step led to the wrong node
  uint32_t sibling_chases = 0;         // B-link moves right past a concurrent split
  uint32_t torn_entries_returned = 0;  // an entry passed the check with torn wide bytes
  uint64_t write_back_bytes = 0;       // node data written (lock words not included)

  IndexOpStats& operator+=(const IndexOpStats& other) {
    read_retries += other.read_retries;
    slow_read_retries += other.slow_read_retries;
    lock_retries += other.lock_retries;
    handovers += other.handovers;
    splits += other.splits;
    cache_hits += other.cache_hits;
    cache_misses += other.cache_misses;
    wrong_turns += other.wrong_turns;
    sibling_chases += other.sibling_chases;
    torn_entries_returned += other.torn_entries_returned;
    write_back_bytes += other.write_back_bytes;
    return *this;
  }
};

}  // namespace dmbench::indexes
