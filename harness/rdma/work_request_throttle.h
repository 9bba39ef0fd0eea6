// SMART's work-request throttling (ASPLOS'24 §4.2) for one client thread:
// the thread posts only while its outstanding work requests, those posted
// and not yet completed, stay within a credit C_max, so that the NIC's
// cache of outstanding requests does not thrash.
//
// Fixed: C_max is work_request_credits. Adaptive (Algorithm 1, as SMART's
// public code runs it, smart/initiator.cpp): a training phase samples the
// candidates {4, 6, 8, 10, 12, unlimited} for throttle_sample_us each,
// counting completed work requests; the best is kept for
// throttle_stable_samples samples, then training starts again. Unlimited
// wins only if it completes more than 1.05 times the best finite one.
//
// A batch larger than C_max posts once nothing else is outstanding, rather
// than never (parked_limit.h). Client::ExecuteConcurrently posts its batches in groups that
// fit, each group waited for before the next: a thread with more requests
// than credits keeps C_max in flight, as SMART's posting loop does. Posts nobody waits for
// (Client::PostWithoutWaiting) take no credit: their completions are never polled.
//
// Contract: one object per client thread, used only by that thread's
// coroutines, one at a time; every client passed in is a coroutine of it.
#pragma once

#include <cstdint>

#include "harness/rdma/parked_limit.h"
#include "harness/rdma/substrate_options.h"

namespace dmbench::rdma {

class Client;

class WorkRequestThrottle {
 public:
  static constexpr uint32_t kUnlimited = ParkedLimit::kUnlimited;

  explicit WorkRequestThrottle(const SubstrateOptions& options);

  // Before `client` posts `requests` work requests: may wait (parked) until
  // they fit within the credit.
  void Acquire(Client& client, uint32_t requests);
  // Takes the credit for `requests` more if they fit now, without waiting:
  // for a thread adding to what it has just acquired and not yet posted.
  bool TryAcquire(uint32_t requests);
  // After those requests completed.
  void Release(Client& client, uint32_t requests);

  // kUnlimited or C_max.
  uint32_t max_credits() const { return static_cast<uint32_t>(outstanding_.limit()); }
  uint64_t most_outstanding() const { return outstanding_.most_held(); }

 private:
  // Adaptive: moves to the next sample or phase once the current one is over.
  void Advance(uint64_t now);

  const bool adaptive_;
  const uint64_t sample_ns_;
  const uint32_t stable_samples_;
  ParkedLimit outstanding_;  // work requests posted and not yet completed

  // Adaptive state.
  bool started_ = false;
  uint32_t candidate_ = 0;  // index into the candidates while training
  bool training_ = true;
  uint64_t phase_end_ns_ = 0;
  uint64_t completed_ = 0;  // in the current sample
  uint64_t best_completed_ = 0;
  uint32_t best_limit_ = 0;
};

}  // namespace dmbench::rdma
