// The keys of a run: which key each popularity rank is, which keys the bulkload inserts, and the
// new keys ycsb-d's inserts create.
//
// Rank r maps to key Permute(r) + 1 of a seeded permutation of [0, N), so the hottest Zipfian
// ranks spread over the whole key range (and over many leaves) instead of sharing a few. The
// bulkloaded keys are the first round(N * bulkload_fraction) of a second, independent
// permutation: an exact-size subset, scattered over the key range (so the tree is evenly "80%
// full" rather than full on the left and empty on the right), and uncorrelated with hotness (so
// the share of inserts that update an existing key is the bulkload fraction, as in the paper).
//
// With a Zipf rank population P > N (workload.zipf_population), ranks are drawn over [0, P) and
// FoldRank() maps them onto [0, N): rank r < N stays r, so the hottest N ranks keep exactly the
// shares they have among P items (the hottest key 1/zeta(P) instead of 1/zeta(N)); rank r >= N
// becomes r mod N. The folded ranks are the ones the paper's 1e9-key run spreads over keys this
// run does not have; folding keeps their accesses in the run (the mass is 1 - zeta(N)/zeta(P),
// 23% for N = 1e7, P = 1e9, theta 0.99) and spreads them over every key, rather than dropping
// them (which would renormalise to the N-key law this option exists to avoid) or piling them on
// a few keys. Key r's share grows by sum_j p(jN + r) <= p(N) + (mass beyond N) / N <= 2/N (the
// rank shares p decrease), negligible next to the hottest shares (e.g. 2e-7 vs 4.2%) but not in
// the tail: the coldest keys are hotter than at P keys, so the tail is flatter. A modulo is
// deterministic and needs no draw, so streams depend on (spec, seed, client) as before.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "workloads/bulkloaded_keys.h"
#include "workloads/key_scrambler.h"
#include "workloads/workload_spec.h"
#include "workloads/zipfian_generator.h"

namespace dmbench::workloads {

class KeySpace {
 public:
  // Keys handed to an index are in [1, kMaxKey]: 0 and 2^64 - 1 stay free for indexes to use as
  // sentinels.
  static constexpr uint64_t kMaxKey = ~uint64_t{0} - 1;
  // Bulkload values are in [1, kMaxBulkloadValue], below every value ClientWorkload writes, so
  // a value read back tells whether it came from the bulkload or from which client's write.
  static constexpr uint64_t kMaxBulkloadValue = (uint64_t{1} << 40) - 1;

  // Validates `spec` (ConfigError). Builds the spec's Zipfian generator once, for all clients to
  // share.
  KeySpace(const WorkloadSpec& spec, uint64_t seed);

  KeySpace(const KeySpace&) = delete;
  KeySpace& operator=(const KeySpace&) = delete;

  // N, the number of initial keys: 1..N.
  uint64_t size() const { return size_; }

  // The key of popularity rank `rank` in [0, N) (std::out_of_range otherwise); a bijection onto
  // [1, N].
  uint64_t KeyOfRank(uint64_t rank) const {
    return rank < hottest_keys_.size() ? hottest_keys_[rank] : ranks_.Permute(rank) + 1;
  }
  // Inverse of KeyOfRank for a key in [1, N] (std::out_of_range otherwise).
  uint64_t RankOfKey(uint64_t key) const;

  // Whether the bulkload inserts `key`. False for keys outside [1, N].
  bool Bulkloaded(uint64_t key) const { return bulkloaded_.Contains(key); }
  // The same as a copyable view, for what reads the bulkload after this is gone.
  const BulkloadedKeys& bulkloaded() const { return bulkloaded_; }
  // round(N * bulkload_fraction), the number of bulkloaded keys.
  uint64_t bulkload_count() const { return bulkloaded_.count(); }
  // The index-th bulkloaded key, index in [0, bulkload_count()), in no particular order
  // (std::out_of_range otherwise). Lets a caller pick a bulkloaded key in O(1).
  uint64_t BulkloadedKey(uint64_t index) const;
  // The value the bulkload stores under `key`: a function of (value_seed, key) in
  // [1, 2^39], within [1, kMaxBulkloadValue], so a checker can recompute it. Inline: a node
  // built on first touch computes one per key, and the calls kept its keys'
  // multiplications from overlapping. One multiplication by an odd constant, its top
  // bits: a value must be recomputable and below every written value; nothing reads
  // more into it (no result changed when it replaced a full hash, DeriveSeed, whose
  // 14 instructions a key were half of a fresh leaf's build).
  static uint64_t BulkloadValue(uint64_t value_seed, uint64_t key) {
    return 1 + (((key ^ value_seed) * 0xD1B54A32D192ED03ULL) >> 25);
  }
  // Every bulkloaded key with its BulkloadValue, sorted by strictly increasing key, ready for an
  // index's bulkload. Takes O(N) time.
  std::vector<std::pair<uint64_t, uint64_t>> BulkloadEntries(uint64_t value_seed) const;

  // A rank the Zipfian drew, in [0, P), as a popularity rank in [0, N) for KeyOfRank (see above).
  uint64_t FoldRank(uint64_t rank) const { return rank < size_ ? rank : rank % size_; }

  // The Zipfian over ranks [0, P) with the spec's theta, shared by every client; null for the
  // uniform distribution. P is N unless the spec sets a rank population.
  std::shared_ptr<const ZipfianGenerator> zipfian() const { return zipfian_; }

  // ycsb-d's new keys N + 1, N + 2, ... Each call hands out the next one; safe to call from
  // several threads. Throws std::overflow_error past kMaxKey.
  uint64_t NextInsertKey();
  // The largest key handed out so far, or N before any. A key counts once handed out, even if the
  // client has not inserted it yet, as in YCSB's latest generator without acknowledgements.
  uint64_t LatestKey() const { return next_insert_key_.load(std::memory_order_relaxed) - 1; }

 private:
  uint64_t size_;
  KeyScrambler ranks_;
  // KeyOfRank of the kHottestRanks most popular ranks, under a skewed
  // distribution: most draws land there (70% at 10 M keys, 55% at 1 B), and
  // one load of this table, which stays in the CPU's cache, replaces a
  // permutation's chain of table loads. Empty for a uniform distribution or
  // keys past 32 bits.
  static constexpr uint64_t kHottestRanks = uint64_t{1} << 16;
  std::vector<uint32_t> hottest_keys_;
  BulkloadedKeys bulkloaded_;
  std::shared_ptr<const ZipfianGenerator> zipfian_;
  std::atomic<uint64_t> next_insert_key_;
};

}  // namespace dmbench::workloads
