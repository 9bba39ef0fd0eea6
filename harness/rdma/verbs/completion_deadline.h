// When a posted batch of work requests counts as lost.
#pragma once

#include <algorithm>
#include <cstdint>

namespace dmbench::rdma::verbs {

// A batch is lost when its completions are overdue (posted more than the
// timeout ago) and still overdue a grace period after that was first seen.
// One look is not enough: when the whole machine stops (a virtual machine
// descheduled by its host, a debugger), the clock jumps past every deadline
// at once, before the device has delivered the completions that were due,
// and every client of every process on it would fail together.
//
// Not thread-safe: one client's thread owns it.
class CompletionDeadline {
 public:
  static constexpr uint64_t kMaxGraceNs = 1'000'000'000;

  explicit CompletionDeadline(uint64_t timeout_ns)
      : timeout_ns_(timeout_ns), grace_ns_(std::min(timeout_ns, kMaxGraceNs)) {}

  // A batch was posted at `now_ns`.
  void Start(uint64_t now_ns) {
    posted_at_ns_ = now_ns;
    overdue_seen_at_ns_ = kNotSeen;
  }

  // Looks at the clock while the batch is pending; true once it is lost.
  bool Lost(uint64_t now_ns) {
    if (now_ns - posted_at_ns_ <= timeout_ns_) return false;
    if (overdue_seen_at_ns_ == kNotSeen) {
      overdue_seen_at_ns_ = now_ns;
      return false;
    }
    return now_ns - overdue_seen_at_ns_ >= grace_ns_;
  }

 private:
  static constexpr uint64_t kNotSeen = ~uint64_t{0};

  uint64_t timeout_ns_;
  uint64_t grace_ns_;
  uint64_t posted_at_ns_ = 0;
  uint64_t overdue_seen_at_ns_ = kNotSeen;
};

}  // namespace dmbench::rdma::verbs
