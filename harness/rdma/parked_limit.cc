#include "harness/rdma/parked_limit.h"

#include <algorithm>

#include "harness/rdma/client.h"

namespace dmbench::rdma {

void ParkedLimit::Acquire(Client& client, uint64_t amount) {
  if (TryAcquire(amount)) return;
  // A waker takes the share for this coroutine before it wakes it.
  waiting_.push_back({&client, amount});
  client.Park();
}

bool ParkedLimit::TryAcquire(uint64_t amount) {
  if (!waiting_.empty() || !Fits(amount)) return false;
  Take(amount);
  return true;
}

void ParkedLimit::Release(Client& waker, uint64_t amount) {
  held_ -= amount;
  WakeWaiters(waker);
}

void ParkedLimit::WakeWaiters(Client& waker) {
  while (!waiting_.empty() && Fits(waiting_.front().amount)) {
    const Waiter next = waiting_.front();
    waiting_.pop_front();
    Take(next.amount);
    waker.Unpark(*next.client);
  }
}

void ParkedLimit::Take(uint64_t amount) {
  held_ += amount;
  most_held_ = std::max(most_held_, held_);
}

}  // namespace dmbench::rdma
