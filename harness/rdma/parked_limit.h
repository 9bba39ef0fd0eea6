// A limit on how much its coroutines hold at once, for one client thread:
// work requests in flight (WorkRequestThrottle), operations running
// (ConflictAvoidance). An acquirer that does not fit waits parked, in
// arrival order, and is woken already holding its share, so a later
// acquirer never overtakes it. Something larger than the limit is let in
// once nothing is held, rather than never.
//
// Contract: one object per client thread, used only by that thread's
// coroutines, one at a time; every client passed in is a coroutine of it.
#pragma once

#include <cstdint>
#include <deque>

namespace dmbench::rdma {

class Client;

class ParkedLimit {
 public:
  static constexpr uint64_t kUnlimited = 0;

  explicit ParkedLimit(uint64_t limit) : limit_(limit) {}

  // Takes `amount`, first waiting (parked) until it fits.
  void Acquire(Client& client, uint64_t amount);
  // Takes `amount` if it fits now and nobody waits; never waits.
  bool TryAcquire(uint64_t amount);
  // Gives `amount` back; `waker`, a running coroutine of the thread, wakes
  // the waiters that now fit.
  void Release(Client& waker, uint64_t amount);
  // A new limit. Lowering it takes nothing back; raising it wakes nobody
  // until WakeWaiters or Release.
  void SetLimit(uint64_t limit) { limit_ = limit; }
  void WakeWaiters(Client& waker);

  uint64_t limit() const { return limit_; }
  uint64_t most_held() const { return most_held_; }

 private:
  struct Waiter {
    Client* client;
    uint64_t amount;
  };
  bool Fits(uint64_t amount) const {
    return limit_ == kUnlimited || held_ + amount <= limit_ || held_ == 0;
  }
  void Take(uint64_t amount);

  uint64_t limit_;
  uint64_t held_ = 0;
  uint64_t most_held_ = 0;
  std::deque<Waiter> waiting_;
};

}  // namespace dmbench::rdma
