// What one index operation did beyond its verbs (which the substrate counts
// in rdma::OpStats): retries, lock handovers, splits, cache behaviour.
//
// Each counter is declared once, in IndexOpStats::Counters(): the sum, the
// results' JSON and its reader all walk that list.
#pragma once

#include <cstdint>
#include <span>

namespace dmbench::indexes {

struct IndexOpStats;

struct IndexOpCounter {
  const char* name;  // the key in a result's "index" object
  uint64_t IndexOpStats::*member;
};

struct IndexOpStats {
  uint64_t read_retries = 0;        // re-reads of a node that failed its check
  uint64_t slow_read_retries = 0;   // re-reads because a READ outlasted the version wrap window
  uint64_t slow_reads_trusted = 0;  // READs past that window trusted, as wrap_retry allows
  uint64_t lock_retries = 0;        // failed CAS while acquiring a global lock
  uint64_t handovers = 0;           // locks received from a local predecessor
  uint64_t splits = 0;              // nodes split, at any level
  uint64_t cache_hits = 0;          // level-1 cache routed the operation
  uint64_t cache_misses = 0;
  uint64_t wrong_turns = 0;            // a cache or traversal step led to the wrong node
  uint64_t sibling_chases = 0;         // B-link moves right past a concurrent split
  uint64_t torn_entries_returned = 0;  // an entry passed the check with torn wide bytes
  // Speculative lookup (SMART-BT): lookups answered by the one cacheline
  // their key-address hint points to, and hints whose line no longer held
  // the key (the lookup then took the regular path).
  uint64_t speculative_hits = 0;
  uint64_t speculative_misses = 0;
  uint64_t write_back_bytes = 0;  // node data written (lock words not included)

  // Every counter above, in declaration order. 64 bits, as their sums over a
  // run are: a run of simulated minutes, or several servers merged, passes
  // 2^32 lock retries or cache hits.
  static std::span<const IndexOpCounter> Counters();

  IndexOpStats& operator+=(const IndexOpStats& other) {
    for (const IndexOpCounter& counter : Counters()) {
      this->*counter.member += other.*counter.member;
    }
    return *this;
  }
};

inline std::span<const IndexOpCounter> IndexOpStats::Counters() {
  using S = IndexOpStats;
  static constexpr IndexOpCounter kCounters[] = {
      {"read_retries", &S::read_retries},
      {"slow_read_retries", &S::slow_read_retries},
      {"slow_reads_trusted", &S::slow_reads_trusted},
      {"lock_retries", &S::lock_retries},
      {"handovers", &S::handovers},
      {"splits", &S::splits},
      {"cache_hits", &S::cache_hits},
      {"cache_misses", &S::cache_misses},
      {"wrong_turns", &S::wrong_turns},
      {"sibling_chases", &S::sibling_chases},
      {"torn_entries_returned", &S::torn_entries_returned},
      {"speculative_hits", &S::speculative_hits},
      {"speculative_misses", &S::speculative_misses},
      {"write_back_bytes", &S::write_back_bytes},
  };
  return kCounters;
}

}  // namespace dmbench::indexes
