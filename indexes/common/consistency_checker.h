// Checks a recorded history of concurrent index operations against the
// semantics of a map of independent registers: every lookup, delete result
// and range query must be explainable by writes that could have taken effect
// before or during it, given the real-time order of invocations and responses.
//
// The check is per key and local to each read, so it is a necessary condition
// for linearizability, not a full linearizability check; in exchange it runs
// in O(n log n) for millions of operations, which a benchmark needs.
//
// Semantics. Every operation has an interval [invoke, response] in nanoseconds
// of a clock shared by all clients. For a read over [s, e] of key k, a write w
// of k is a candidate iff w.invoke < e and w is not superseded, where w is
// superseded iff another write w' of k follows w and completed before the
// read. An operation follows another when it was invoked after the other's
// response (strictly: equal times say nothing of their order), or when both
// are of one client and it came later in that client's order. A client's
// operations are sequential, so its order is exact where times cannot be:
// a simulated client begins its next operation at the very instant its last
// one ends, and loaded histories widen every interval. The initial contents
// (SetInitial, or "absent" for any key never set) count as a write at minus
// infinity. A read is valid iff it returned the outcome of some candidate
// (the upserted value, or absent for a delete): the latest write completed
// before it began, a write overlapping it, or a write concurrent with that
// latest one.
//
// Lost writes: a write is only tested through the reads that follow it. To
// catch an acknowledged write that the index lost, callers should look up
// every key they wrote (or scan the whole key space) after all writes have
// completed; at that point the only candidates are the writes no later write
// superseded, so a lost write shows up as a violation of those final reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dmbench::indexes {

namespace internal {

// How ConsistencyChecker stores a history; not for callers.
enum class OpKind : uint8_t { kUpsert, kDelete, kLookup, kRange };
struct RecordedOp {
  uint64_t key = 0;  // `from` for ranges
  uint64_t arg = 0;  // upsert value, lookup result, or index of the RecordedRange
  uint64_t invoke = 0;
  uint64_t response = 0;
  uint32_t client = 0;
  OpKind kind = OpKind::kUpsert;
  bool flag = false;  // lookup found a value, or delete reported `existed`
};
struct RecordedRange {
  uint64_t to = 0;
  size_t limit = 0;
  std::vector<std::pair<uint64_t, uint64_t>> result;
};

}  // namespace internal

struct ConsistencyViolation {
  // One line naming the operation kind, client, key(s), interval, what was
  // returned and (up to five of) the outcomes that would have been allowed.
  std::string message;
};

struct ConsistencyReport {
  uint64_t operations_checked = 0;             // every recorded operation, writes included
  uint64_t violations = 0;                     // operations found invalid (one per operation)
  std::vector<ConsistencyViolation> examples;  // the first kMaxExamples, in recording order
  bool ok() const { return violations == 0; }

  static constexpr size_t kMaxExamples = 20;
};

// Thread-safe recorder and checker. Record* may be called from any number of
// threads at once; Check() may be called at any time and more than once, and
// sees every operation whose Record* call returned before it. Each client's
// operations must be recorded in the order the client ran them, one after
// another (the checker takes that order as their real-time order), and one
// client id must not be shared by operations that run concurrently.
class ConsistencyChecker {
 public:
  using KeyValue = std::pair<uint64_t, uint64_t>;

  // Bulkloaded contents, present before any operation. A later call for the
  // same key replaces the earlier one.
  void SetInitial(uint64_t key, uint64_t value);

  // Insert or update.
  void RecordUpsert(uint32_t client, uint64_t key, uint64_t value, uint64_t invoke_ns,
                    uint64_t response_ns);
  // `existed`: whether the index reported that the key was present. It is
  // checked like a lookup (present vs. absent) whose candidates leave out the
  // delete itself.
  void RecordDelete(uint32_t client, uint64_t key, bool existed, uint64_t invoke_ns,
                    uint64_t response_ns);
  // `result`: the value found, or nullopt when the index reported the key absent.
  void RecordLookup(uint32_t client, uint64_t key, std::optional<uint64_t> result,
                    uint64_t invoke_ns, uint64_t response_ns);
  // A scan of keys in [from, to) returning at most `limit` pairs (0: no limit).
  // It is valid iff the keys ascend strictly within [from, to) and fit the
  // limit, every pair is valid as a lookup over the scan's interval, and every
  // recorded key in the range that certainly existed throughout (all its
  // candidates are upserts) is returned, except keys beyond the last one
  // returned when the result is full.
  void RecordRange(uint32_t client, uint64_t from, uint64_t to, size_t limit,
                   std::vector<KeyValue> result, uint64_t invoke_ns, uint64_t response_ns);

  // Each invalid operation counts once, with its first problem as the
  // example; an interval whose response precedes its invoke is invalid.
  // O(n log n) in the history size, plus the candidates each read enumerates
  // and, for range queries, the recorded keys inside the scanned range.
  // Blocks recording while it runs.
  ConsistencyReport Check() const;
  // Operations recorded so far (SetInitial not included).
  uint64_t recorded() const;

  // Each compute-server process records only its own clients' operations;
  // `dmbench merge` checks the union. SaveHistory writes every recorded
  // operation, but not the SetInitial contents, which the merge re-derives,
  // in a compact binary format with a magic header and version. The caller
  // checks `out` for write errors.
  void SaveHistory(std::ostream& out) const;
  // Appends a history SaveHistory wrote, keeping its client ids (already
  // dense over the cluster). Every loaded interval is widened by `widen_ns`
  // on both sides (invoke saturating at 0, response at 2^64 - 1): the
  // processes' clocks agree only up to a bounded skew, and a wider interval
  // only admits more candidates, so skew cannot cause a false violation.
  // Reads `in` to its end. Throws ConfigError ("history file: ...") for a
  // truncated, malformed or foreign stream, or one with bytes after the
  // history, leaving this checker unchanged. Each client's operations must be
  // in one history, and a history loaded after the operations of this
  // process were recorded must not hold their clients.
  void LoadHistory(std::istream& in, uint64_t widen_ns);

 private:
  void Append(const internal::RecordedOp& op);

  mutable std::mutex mutex_;
  std::vector<internal::RecordedOp> ops_;
  std::vector<internal::RecordedRange> ranges_;
  std::vector<KeyValue> initial_;  // in call order; the last entry for a key wins
  // How far one client's operation may be recorded as ending after its next
  // one begins: twice the largest widening loaded.
  uint64_t own_overlap_ = 0;
};

}  // namespace dmbench::indexes
