#include "harness/rdma/work_request_throttle.h"

#include <algorithm>
#include <array>

#include "harness/rdma/client.h"

namespace dmbench::rdma {

namespace {
// SMART's candidates for C_max, the last unlimited (Algorithm 1, line 17;
// its code adds the unlimited one).
constexpr std::array<uint32_t, 6> kCandidates = {4, 6, 8, 10, 12, WorkRequestThrottle::kUnlimited};
// Unlimited must beat the best finite credit by this factor (SMART's
// inf_credit_weight).
constexpr double kUnlimitedWeight = 1.05;
}  // namespace

WorkRequestThrottle::WorkRequestThrottle(const SubstrateOptions& options)
    : adaptive_(options.work_request_throttling == WorkRequestThrottling::kAdaptive),
      sample_ns_(static_cast<uint64_t>(options.throttle_sample_us * 1e3)),
      stable_samples_(options.throttle_stable_samples),
      outstanding_(adaptive_ ? kCandidates[0] : options.work_request_credits) {}

void WorkRequestThrottle::Acquire(Client& client, uint32_t requests) {
  if (adaptive_) Advance(client.NowNanoseconds());
  outstanding_.Acquire(client, requests);
}

bool WorkRequestThrottle::TryAcquire(uint32_t requests) {
  return outstanding_.TryAcquire(requests);
}

void WorkRequestThrottle::Release(Client& client, uint32_t requests) {
  completed_ += requests;
  if (adaptive_) Advance(client.NowNanoseconds());
  outstanding_.Release(client, requests);
}

void WorkRequestThrottle::Advance(uint64_t now) {
  if (!started_) {
    started_ = true;
    phase_end_ns_ = now + sample_ns_;
    completed_ = 0;
    return;
  }
  if (now < phase_end_ns_) return;
  if (!training_) {
    // The stable phase is over: train again from the first candidate.
    training_ = true;
    candidate_ = 0;
    best_completed_ = 0;
    outstanding_.SetLimit(kCandidates[0]);
  } else {
    const uint32_t sampled = kCandidates[candidate_];
    const double weight = sampled == kUnlimited ? kUnlimitedWeight : 1.0;
    if (candidate_ == 0 || static_cast<double>(completed_) > weight * best_completed_) {
      best_completed_ = completed_;
      best_limit_ = sampled;
    }
    if (++candidate_ < kCandidates.size()) {
      outstanding_.SetLimit(kCandidates[candidate_]);
    } else {
      training_ = false;
      outstanding_.SetLimit(best_limit_);
    }
  }
  completed_ = 0;
  phase_end_ns_ = now + (training_ ? sample_ns_ : sample_ns_ * stable_samples_);
}

}  // namespace dmbench::rdma
