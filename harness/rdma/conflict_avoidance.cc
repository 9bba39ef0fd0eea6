#include "harness/rdma/conflict_avoidance.h"

#include <algorithm>

#include "harness/rdma/client.h"

namespace dmbench::rdma {

ConflictAvoidance::ConflictAvoidance(const SubstrateOptions& options, uint32_t coroutines,
                                     uint64_t seed)
    : throttle_tasks_(options.coroutine_throttling),
      unit_ns_(static_cast<uint64_t>(options.backoff_unit_ns)),
      epoch_ns_(static_cast<uint64_t>(options.backoff_epoch_us * 1e3)),
      random_(seed),
      backoff_ns_(coroutines, unit_ns_),
      max_backoff_ns_(unit_ns_) {}

void ConflictAvoidance::BeginTask(Client& client) {
  backoff_ns_[client.location().coroutine] = unit_ns_;
  if (throttle_tasks_) running_.Acquire(client, 1);
}

void ConflictAvoidance::EndTask(Client& client) {
  ++tasks_;
  if (throttle_tasks_) running_.Release(client, 1);
}

void ConflictAvoidance::Retry(Client& client) {
  ++retries_;
  const uint64_t now = client.NowNanoseconds();
  if (!epoch_started_) {
    epoch_started_ = true;
    epoch_start_ns_ = now;
  } else if (now - epoch_start_ns_ > epoch_ns_) {
    JudgeEpoch();
    epoch_start_ns_ = now;
    running_.WakeWaiters(client);
  }
  uint64_t& backoff = backoff_ns_[client.location().coroutine];
  client.SleepUntil(now + backoff + random_.Uniform(unit_ns_));
  backoff = std::min(backoff * 2, max_backoff_ns_);
}

void ConflictAvoidance::JudgeEpoch() {
  const uint64_t attempts = retries_ + tasks_;
  const double retry_rate = attempts == 0 ? 0 : static_cast<double>(retries_) / attempts;
  retries_ = tasks_ = 0;
  const uint64_t longest = unit_ns_ << kMaxBackoffShift;
  if (retry_rate > kHighWaterMark) {
    if (throttle_tasks_ && running_.limit() > 1) {
      running_.SetLimit(running_.limit() / 2);
    } else {
      max_backoff_ns_ = std::min(max_backoff_ns_ * 2, longest);
    }
  } else if (retry_rate < kLowWaterMark) {
    if (throttle_tasks_ && running_.limit() < kMaxTasks) {
      running_.SetLimit(std::min<uint64_t>(running_.limit() * 2, kMaxTasks));
    } else {
      max_backoff_ns_ = std::max(max_backoff_ns_ / 2, unit_ns_);
    }
  }
}

}  // namespace dmbench::rdma
