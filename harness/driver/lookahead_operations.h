// A client's operations, drawn a few ahead of when they run, so that the
// index can prefetch for the ones to come (Index::Prefetch).
//
// At the paper's scale most of a lookup's wall time in the simulator is spent
// waiting for the simulator's own memory: the index cache's arrays are far
// larger than the CPU's caches, and the lookup's searches load from them one
// after another. Knowing the next operation's key while the current one
// runs lets those lines be fetched while the simulator does other work.
//
// Drawing ahead changes neither the operations nor their order; a stream
// whose draws depend on other clients' (OperationStream::
// DrawsAheadUnchanged false: ycsb-d) is not drawn ahead at all. When the
// client stops, the operations drawn and never run are handed back to the
// stream (OperationStream::Unread), so that what it reports counts only
// those that ran. The stream must outlive this object; one client's, not
// thread-safe.
#pragma once

#include <array>
#include <cstddef>

#include "workloads/operation_stream.h"

namespace dmbench::driver {

class LookaheadOperations {
 public:
  // How many operations are known beyond the one running, at most.
  static constexpr size_t kDepth = 2;

  explicit LookaheadOperations(workloads::OperationStream& stream)
      : stream_(stream), depth_(stream.DrawsAheadUnchanged() ? kDepth : 0) {}
  ~LookaheadOperations() { stream_.Unread(drawn_); }
  LookaheadOperations(const LookaheadOperations&) = delete;
  LookaheadOperations& operator=(const LookaheadOperations&) = delete;

  // How many operations are known beyond the one running: kDepth, or 0 for
  // a stream that is not drawn ahead.
  size_t depth() const { return depth_; }

  // The next operation to run; afterwards Ahead() is the one after it.
  workloads::Operation Next() {
    while (drawn_ <= depth_) Draw();
    const workloads::Operation next = ahead_[first_];
    first_ = (first_ + 1) % ahead_.size();
    --drawn_;
    return next;
  }

  // The operation `distance` (in [1, depth()]) after the one Next returned
  // last.
  const workloads::Operation& Ahead(size_t distance = 1) const {
    return ahead_[(first_ + distance - 1) % ahead_.size()];
  }

 private:
  void Draw() {
    ahead_[(first_ + drawn_) % ahead_.size()] = stream_.Next();
    ++drawn_;
  }

  workloads::OperationStream& stream_;
  const size_t depth_;
  std::array<workloads::Operation, kDepth + 1> ahead_{};
  size_t first_ = 0;  // where the oldest drawn operation is
  size_t drawn_ = 0;  // drawn and not yet returned
};

}  // namespace dmbench::driver
