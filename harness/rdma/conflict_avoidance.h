// SMART's conflict avoidance (ASPLOS'24 §4.3) for one client thread: a
// truncated exponential backoff after each failed CAS, whose limit follows
// the thread's retry rate, and optionally a limit on how many of its
// coroutines run an operation at once.
//
// Per coroutine, an operation's i-th retry waits min(t0 2^i, t_max) +
// rand(t0), t_max starting at t0. Every epoch, at a retry, the thread's
// retry rate r = retries / (retries + operations ended) is judged: above
// 0.5 the pressure goes down, below 0.1 it goes up. With coroutine
// throttling the running limit moves first (halved to 1, doubled to 64)
// and t_max (doubled to 2^10 t0, halved to t0) only when the limit sits at
// its bound; without, t_max alone moves. These are the rules of SMART's
// public code (include/smart/backoff.h), in nanoseconds instead of cycles.
//
// Contract: one object per client thread, used only by that thread's
// coroutines, one at a time (as cooperative coroutines are); every client
// passed in is a coroutine of that thread. BeginTask and EndTask pair
// around each operation; Retry is called by index code after a failed CAS.
#pragma once

#include <cstdint>
#include <vector>

#include "harness/rdma/parked_limit.h"
#include "harness/rdma/substrate_options.h"
#include "harness/util/random.h"

namespace dmbench::rdma {

class Client;

class ConflictAvoidance {
 public:
  static constexpr uint32_t kMaxTasks = 64;         // SMART's kMaxTasksPerThread
  static constexpr uint32_t kMaxBackoffShift = 10;  // t_max <= 2^10 t0
  static constexpr double kLowWaterMark = 0.1;
  static constexpr double kHighWaterMark = 0.5;

  // `coroutines`: of the thread; `seed`: of the backoff's random part.
  ConflictAvoidance(const SubstrateOptions& options, uint32_t coroutines, uint64_t seed);

  // Starts an operation of `client`; with coroutine throttling it may wait
  // (parked) until fewer than the limit run.
  void BeginTask(Client& client);
  void EndTask(Client& client);
  // After a failed CAS: judges the epoch if it is over, then waits the
  // backoff of `client`'s operation and doubles it.
  void Retry(Client& client);

  uint32_t max_tasks() const { return static_cast<uint32_t>(running_.limit()); }
  uint64_t max_backoff_ns() const { return max_backoff_ns_; }

 private:
  void JudgeEpoch();

  const bool throttle_tasks_;
  const uint64_t unit_ns_;
  const uint64_t epoch_ns_;
  Random random_;
  std::vector<uint64_t> backoff_ns_;  // per coroutine of the thread
  uint64_t max_backoff_ns_;
  ParkedLimit running_{kMaxTasks};  // operations running, with coroutine throttling
  bool epoch_started_ = false;      // at the thread's first retry
  uint64_t epoch_start_ns_ = 0;
  uint64_t retries_ = 0;
  uint64_t tasks_ = 0;
};

}  // namespace dmbench::rdma
