#include "indexes/common/consistency_checker.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace dmbench::indexes {
namespace {

using Op = internal::RecordedOp;
using OpKind = internal::OpKind;
using RangeOp = internal::RecordedRange;
using KeyValue = ConsistencyChecker::KeyValue;

constexpr uint64_t kNoOp = std::numeric_limits<uint64_t>::max();
constexpr size_t kListedOutcomes = 5;

struct Write {
  uint64_t key;
  uint64_t invoke;
  uint64_t response;
  uint64_t value;
  uint64_t op_index;  // lets a delete leave itself out of its own candidates
  // The same client's next write of this key, which supersedes this one
  // whatever the two intervals say (kNoOp when there is none).
  uint64_t next_own_op;
  uint64_t next_own_response;
  uint32_t client;
  bool is_delete;
};

// The operation whose result is being explained: a lookup, a delete (which
// leaves its own write out of its candidates) or a range query.
struct Reader {
  uint64_t invoke;
  uint64_t response;
  uint64_t op_index;
  uint32_t client;
  bool excludes_itself;
};

struct Outcome {
  bool present;
  uint64_t value;
};

// The writes of one key occupy [begin, end) of the index's write array, sorted
// by response time; the initial state is the write at minus infinity.
struct KeyGroup {
  uint64_t key;
  size_t begin;
  size_t end;
  Outcome initial;
};

std::string OutcomeText(const Outcome& outcome) {
  return outcome.present ? std::to_string(outcome.value) : std::string("absent");
}

// Minimum invoke time over a segment tree of the write array, so that the
// writes that respond after a read ends but were invoked before it can be
// listed in time proportional to their number (times the tree depth) rather
// than by scanning every later write of the key.
class MinInvokeTree {
 public:
  explicit MinInvokeTree(const std::vector<Write>& writes) {
    leaves_ = std::bit_ceil(std::max<size_t>(writes.size(), 1));
    min_.assign(2 * leaves_, kNoOp);
    for (size_t i = 0; i < writes.size(); ++i) min_[leaves_ + i] = writes[i].invoke;
    for (size_t node = leaves_ - 1; node >= 1; --node) {
      min_[node] = std::min(min_[2 * node], min_[2 * node + 1]);
    }
  }

  // Calls fn(i) in increasing i for each i in [l, r) with invoke < bound until
  // fn returns false; returns false iff it stopped early.
  template <typename Fn>
  bool Visit(size_t l, size_t r, uint64_t bound, Fn& fn) const {
    return l >= r || Visit(1, 0, leaves_, l, r, bound, fn);
  }

 private:
  template <typename Fn>
  bool Visit(size_t node, size_t node_l, size_t node_r, size_t l, size_t r, uint64_t bound,
             Fn& fn) const {
    if (node_r <= l || r <= node_l || min_[node] >= bound) return true;
    if (node_r - node_l == 1) return fn(node_l);
    const size_t mid = node_l + (node_r - node_l) / 2;
    return Visit(2 * node, node_l, mid, l, r, bound, fn) &&
           Visit(2 * node + 1, mid, node_r, l, r, bound, fn);
  }

  size_t leaves_ = 1;
  std::vector<uint64_t> min_;
};

std::vector<Write> CollectWrites(const std::vector<Op>& ops) {
  std::vector<Write> writes;
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    if (op.kind != OpKind::kUpsert && op.kind != OpKind::kDelete) continue;
    writes.push_back({op.key, op.invoke, op.response, op.arg, i, kNoOp, kNoOp, op.client,
                      op.kind == OpKind::kDelete});
  }
  // A client's writes of one key, in the order it made them (recording order).
  std::sort(writes.begin(), writes.end(), [](const Write& a, const Write& b) {
    return std::tie(a.client, a.key, a.op_index) < std::tie(b.client, b.key, b.op_index);
  });
  for (size_t i = 1; i < writes.size(); ++i) {
    Write& previous = writes[i - 1];
    if (previous.client != writes[i].client || previous.key != writes[i].key) continue;
    previous.next_own_op = writes[i].op_index;
    previous.next_own_response = writes[i].response;
  }
  std::sort(writes.begin(), writes.end(), [](const Write& a, const Write& b) {
    return std::tie(a.key, a.response, a.invoke) < std::tie(b.key, b.response, b.invoke);
  });
  return writes;
}

class HistoryIndex {
 public:
  // `own_overlap`: how far a client's operation may be recorded as ending
  // after its next one begins (twice the widening of loaded histories).
  HistoryIndex(const std::vector<Op>& ops, const std::vector<KeyValue>& initial_calls,
               uint64_t own_overlap)
      : writes_(CollectWrites(ops)), tree_(writes_), own_overlap_(own_overlap) {
    std::vector<KeyValue> initial = initial_calls;
    std::stable_sort(initial.begin(), initial.end(),
                     [](const KeyValue& a, const KeyValue& b) { return a.first < b.first; });
    size_t w = 0;
    size_t i = 0;
    while (w < writes_.size() || i < initial.size()) {
      uint64_t key = w < writes_.size() ? writes_[w].key : initial[i].first;
      if (i < initial.size()) key = std::min(key, initial[i].first);
      KeyGroup group{key, w, w, {false, 0}};
      for (; i < initial.size() && initial[i].first == key; ++i) {
        group.initial = {true, initial[i].second};
      }
      while (w < writes_.size() && writes_[w].key == key) ++w;
      group.end = w;
      groups_.push_back(group);
    }
    prefix_max_invoke_.resize(writes_.size());
    for (const KeyGroup& group : groups_) {
      uint64_t running = 0;
      for (size_t j = group.begin; j < group.end; ++j) {
        running = std::max(running, writes_[j].invoke);
        prefix_max_invoke_[j] = running;
      }
    }
  }

  // nullptr when the key was never written nor bulkloaded.
  const KeyGroup* Find(uint64_t key) const {
    auto it = std::lower_bound(groups_.begin(), groups_.end(), key,
                               [](const KeyGroup& g, uint64_t k) { return g.key < k; });
    return it != groups_.end() && it->key == key ? &*it : nullptr;
  }

  // The keys in [from, to) that appear in the history, in ascending order.
  std::span<const KeyGroup> KeysIn(uint64_t from, uint64_t to) const {
    auto by_key = [](const KeyGroup& g, uint64_t k) { return g.key < k; };
    auto first = std::lower_bound(groups_.begin(), groups_.end(), from, by_key);
    auto last = std::lower_bound(first, groups_.end(), std::max(from, to), by_key);
    return {first, last};
  }

  // Calls fn(Outcome) for each candidate of `reader` for the key of `group`
  // (any key never written when null), until fn returns false. Returns false
  // iff fn stopped it.
  template <typename Fn>
  bool ForEachCandidate(const KeyGroup* group, const Reader& reader, Fn fn) const {
    if (group == nullptr) return fn(Outcome{false, 0});
    const uint64_t s = reader.invoke;
    const uint64_t e = reader.response;
    const auto first = writes_.begin() + static_cast<std::ptrdiff_t>(group->begin);
    const auto last = writes_.begin() + static_cast<std::ptrdiff_t>(group->end);
    const auto completed_end =
        std::partition_point(first, last, [s](const Write& w) { return w.response < s; });
    // The reader's own earlier writes completed before it too, though their
    // recorded intervals may touch its own (a client begins its next
    // operation at the instant the last one ends) or, widened for clock skew,
    // overlap it.
    constexpr uint64_t kLatest = std::numeric_limits<uint64_t>::max();
    const uint64_t own_bound = s > kLatest - own_overlap_ ? kLatest : s + own_overlap_;
    const auto own_end = std::partition_point(
        completed_end, last, [own_bound](const Write& w) { return w.response <= own_bound; });
    auto own_earlier = [&reader](const Write& w) {
      return w.client == reader.client && w.op_index < reader.op_index;
    };
    bool any_completed = completed_end != first;
    uint64_t m = 0;
    if (any_completed) {
      m = prefix_max_invoke_[static_cast<size_t>(completed_end - writes_.begin()) - 1];
    }
    for (auto it = completed_end; it != own_end; ++it) {
      if (!own_earlier(*it)) continue;
      any_completed = true;
      m = std::max(m, it->invoke);
    }
    auto oldest = first;
    if (!any_completed) {
      if (!fn(group->initial)) return false;
    } else {
      // m: the latest invoke among writes completed before s. A write that
      // responded before m is superseded by the write invoked at m.
      oldest = std::partition_point(first, last, [m](const Write& w) { return w.response < m; });
    }
    auto emit = [&](size_t i) {
      const Write& w = writes_[i];
      if (reader.excludes_itself && w.op_index == reader.op_index) return true;
      // Superseded by its client's next write of the key, completed before s.
      if (w.next_own_op != kNoOp &&
          (w.next_own_response < s ||
           (w.client == reader.client && w.next_own_op < reader.op_index))) {
        return true;
      }
      return fn(Outcome{!w.is_delete, w.value});
    };
    // Writes that responded before e were invoked before it, so all qualify.
    const auto ended =
        std::partition_point(oldest, last, [e](const Write& w) { return w.response < e; });
    for (auto it = oldest; it != ended; ++it) {
      if (!emit(static_cast<size_t>(it - writes_.begin()))) return false;
    }
    if (!tree_.Visit(static_cast<size_t>(ended - writes_.begin()), group->end, e, emit)) {
      return false;
    }
    // An own earlier write invoked at e (it and the reader took no time) was
    // completed before the reader, yet neither loop above reaches it.
    for (auto it = std::max(completed_end, ended); it < own_end; ++it) {
      if (own_earlier(*it) && it->invoke >= e && !emit(static_cast<size_t>(it - writes_.begin()))) {
        return false;
      }
    }
    return true;
  }

  std::string AllowedText(const KeyGroup* group, const Reader& reader) const {
    std::string text;
    size_t count = 0;
    ForEachCandidate(group, reader, [&](const Outcome& outcome) {
      if (count < kListedOutcomes) text += (count == 0 ? "" : ", ") + OutcomeText(outcome);
      ++count;
      return true;
    });
    if (count > kListedOutcomes) text += ", ... (" + std::to_string(count) + " candidates)";
    return count == 0 ? "none" : text;
  }

 private:
  std::vector<Write> writes_;
  std::vector<uint64_t> prefix_max_invoke_;  // per key group, over writes sorted by response
  std::vector<KeyGroup> groups_;             // sorted by key
  MinInvokeTree tree_;
  uint64_t own_overlap_;
};

std::string Interval(const Op& op) {
  return "interval [" + std::to_string(op.invoke) + ", " + std::to_string(op.response) + "]";
}

std::string Describe(const Op& op, const std::vector<RangeOp>& ranges) {
  const std::string who = " client " + std::to_string(op.client);
  const std::string key = " key " + std::to_string(op.key) + " ";
  switch (op.kind) {
    case OpKind::kUpsert:
      return "upsert" + who + key + Interval(op);
    case OpKind::kDelete:
      return "delete" + who + key + Interval(op);
    case OpKind::kLookup:
      return "lookup" + who + key + Interval(op);
    case OpKind::kRange: {
      const RangeOp& range = ranges[op.arg];
      return "range" + who + " keys [" + std::to_string(op.key) + ", " + std::to_string(range.to) +
             ") limit " + std::to_string(range.limit) + " " + Interval(op);
    }
  }
  return "operation";
}

bool SameOutcome(const Outcome& outcome, bool present, uint64_t value) {
  return outcome.present == present && (!present || outcome.value == value);
}

// Returns the reason `op` is invalid, or an empty string when it is valid.
std::string FindProblem(const HistoryIndex& index, const std::vector<Op>& ops,
                        const std::vector<RangeOp>& ranges, uint64_t op_index) {
  const Op& op = ops[op_index];
  if (op.invoke > op.response) return "response precedes invoke";
  const Reader reader{op.invoke, op.response, op_index, op.client, op.kind == OpKind::kDelete};
  switch (op.kind) {
    case OpKind::kUpsert:
      return "";
    case OpKind::kDelete: {
      const KeyGroup* group = index.Find(op.key);
      const bool explained = !index.ForEachCandidate(
          group, reader, [&](const Outcome& o) { return o.present != op.flag; });
      if (explained) return "";
      return std::string("returned existed=") + (op.flag ? "true" : "false") +
             "; allowed prior states: " + index.AllowedText(group, reader);
    }
    case OpKind::kLookup: {
      const KeyGroup* group = index.Find(op.key);
      const bool explained = !index.ForEachCandidate(
          group, reader, [&](const Outcome& o) { return !SameOutcome(o, op.flag, op.arg); });
      if (explained) return "";
      return "returned " + OutcomeText({op.flag, op.arg}) +
             "; allowed: " + index.AllowedText(group, reader);
    }
    case OpKind::kRange:
      break;
  }
  const RangeOp& range = ranges[op.arg];
  const std::vector<KeyValue>& result = range.result;
  if (range.limit > 0 && result.size() > range.limit) {
    return "returned " + std::to_string(result.size()) + " results, over the limit";
  }
  for (size_t i = 0; i < result.size(); ++i) {
    const uint64_t key = result[i].first;
    if (key < op.key || key >= range.to) {
      return "returned key " + std::to_string(key) + " outside the range";
    }
    if (i > 0 && key <= result[i - 1].first) {
      return "returned key " + std::to_string(key) + " at position " + std::to_string(i) +
             " after key " + std::to_string(result[i - 1].first) + ": not strictly ascending";
    }
  }
  for (const auto& entry : result) {
    // (Not a structured binding: clang 14 cannot capture one in a lambda.)
    const uint64_t key = entry.first, value = entry.second;
    const KeyGroup* group = index.Find(key);
    const bool explained = !index.ForEachCandidate(
        group, reader, [&](const Outcome& o) { return !SameOutcome(o, true, value); });
    if (!explained) {
      return "returned key " + std::to_string(key) + " with value " + std::to_string(value) +
             "; allowed: " + index.AllowedText(group, reader);
    }
  }
  // A full result only vouches for the keys up to its last one.
  const bool full = range.limit > 0 && result.size() == range.limit;
  const uint64_t scanned_to = full ? result.back().first + 1 : range.to;
  size_t next = 0;
  for (const KeyGroup& group : index.KeysIn(op.key, scanned_to)) {
    while (next < result.size() && result[next].first < group.key) ++next;
    if (next < result.size() && result[next].first == group.key) continue;
    const bool maybe_absent =
        !index.ForEachCandidate(&group, reader, [](const Outcome& o) { return o.present; });
    if (!maybe_absent) {
      return "missing key " + std::to_string(group.key) +
             ", which existed throughout; candidates: " + index.AllowedText(&group, reader);
    }
  }
  return "";
}

}  // namespace

void ConsistencyChecker::SetInitial(uint64_t key, uint64_t value) {
  std::lock_guard lock(mutex_);
  initial_.emplace_back(key, value);
}

void ConsistencyChecker::Append(const Op& op) {
  std::lock_guard lock(mutex_);
  ops_.push_back(op);
}

void ConsistencyChecker::RecordUpsert(uint32_t client, uint64_t key, uint64_t value,
                                      uint64_t invoke_ns, uint64_t response_ns) {
  Append({key, value, invoke_ns, response_ns, client, OpKind::kUpsert, false});
}

void ConsistencyChecker::RecordDelete(uint32_t client, uint64_t key, bool existed,
                                      uint64_t invoke_ns, uint64_t response_ns) {
  Append({key, 0, invoke_ns, response_ns, client, OpKind::kDelete, existed});
}

void ConsistencyChecker::RecordLookup(uint32_t client, uint64_t key, std::optional<uint64_t> result,
                                      uint64_t invoke_ns, uint64_t response_ns) {
  Append({key, result.value_or(0), invoke_ns, response_ns, client, OpKind::kLookup,
          result.has_value()});
}

void ConsistencyChecker::RecordRange(uint32_t client, uint64_t from, uint64_t to, size_t limit,
                                     std::vector<KeyValue> result, uint64_t invoke_ns,
                                     uint64_t response_ns) {
  RangeOp range{to, limit, std::move(result)};
  std::lock_guard lock(mutex_);
  ops_.push_back({from, ranges_.size(), invoke_ns, response_ns, client, OpKind::kRange, false});
  ranges_.push_back(std::move(range));
}

ConsistencyReport ConsistencyChecker::Check() const {
  std::lock_guard lock(mutex_);
  const HistoryIndex index(ops_, initial_, own_overlap_);
  ConsistencyReport report;
  report.operations_checked = ops_.size();
  for (uint64_t i = 0; i < ops_.size(); ++i) {
    std::string problem = FindProblem(index, ops_, ranges_, i);
    if (problem.empty()) continue;
    ++report.violations;
    if (report.examples.size() < ConsistencyReport::kMaxExamples) {
      report.examples.push_back({Describe(ops_[i], ranges_) + ": " + problem});
    }
  }
  return report;
}

uint64_t ConsistencyChecker::recorded() const {
  std::lock_guard lock(mutex_);
  return ops_.size();
}

}  // namespace dmbench::indexes
