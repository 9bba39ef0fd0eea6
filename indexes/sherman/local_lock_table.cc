#include "indexes/sherman/local_lock_table.h"

#include <stdexcept>
#include <string>

#include "harness/util/random.h"

namespace dmbench::indexes::sherman {

bool LocalLockTable::Acquire(rdma::Client& client, uint64_t lock_id) {
  Waiter waiter{&client};
  {
    std::lock_guard guard(mutex_);
    LocalLock& lock = LockOf(lock_id);
    if (!lock.held) {
      lock.held = true;
      return false;
    }
    Enqueue(lock, &waiter);
  }
  for (;;) {
    {
      std::lock_guard guard(mutex_);
      if (waiter.granted) return waiter.handed_over;
    }
    try {
      client.Park();  // may return early; the flag decides
    } catch (...) {
      // An aborted run unwinds this frame: the queue must not keep pointing
      // at it, or the next release would write into a dead stack.
      std::lock_guard guard(mutex_);
      if (!waiter.granted) {
        LocalLock& lock = locks_[HeldIndex(lock_id)];
        std::erase(lock.queue, &waiter);
        Dequeued(lock, client);
      }
      throw;
    }
  }
}

LocalLockTable::LocalLock& LocalLockTable::LockOf(uint64_t lock_id) {
  const uint64_t index = lock_index_.Find(lock_id);
  if (index != FlatU64Map::kNoValue) return locks_[index];
  uint32_t fresh = 0;
  if (free_locks_.empty()) {
    fresh = static_cast<uint32_t>(locks_.size());
    locks_.emplace_back();
  } else {
    fresh = free_locks_.back();
    free_locks_.pop_back();
  }
  lock_index_.Put(lock_id, fresh);
  return locks_[fresh];
}

uint32_t LocalLockTable::HeldIndex(uint64_t lock_id) const {
  const uint64_t index = lock_index_.Find(lock_id);
  if (index == FlatU64Map::kNoValue) {
    throw std::logic_error("local lock " + std::to_string(lock_id) + " is not held");
  }
  return static_cast<uint32_t>(index);
}

void LocalLockTable::Enqueue(LocalLock& lock, Waiter* waiter) {
  lock.queue.push_back(waiter);
  ++lock.waiters_of_thread[waiter->client->location().thread];
}

void LocalLockTable::Dequeued(LocalLock& lock, const rdma::Client& client) {
  const auto found = lock.waiters_of_thread.find(client.location().thread);
  if (--found->second == 0) lock.waiters_of_thread.erase(found);
}

bool LocalLockTable::ShouldHandOver(uint64_t lock_id, uint32_t max_handovers) {
  std::lock_guard guard(mutex_);
  const LocalLock& lock = locks_[HeldIndex(lock_id)];
  return !lock.queue.empty() && lock.consecutive_handovers < max_handovers;
}

size_t LocalLockTable::NextWaiter(const LocalLock& lock) {
  if (order_ == LocalWaitOrder::kFifo) return 0;
  return static_cast<size_t>(SplitMix64(draws_) % lock.queue.size());
}

void LocalLockTable::Release(rdma::Client& client, uint64_t lock_id, bool hand_over) {
  rdma::Client* next = nullptr;
  uint32_t spinners = 0;
  {
    std::lock_guard guard(mutex_);
    const uint32_t index = HeldIndex(lock_id);
    LocalLock& lock = locks_[index];
    if (lock.queue.empty()) {
      // Free, as a lock nobody has taken yet: its queue and counts are empty.
      lock.held = false;
      lock.consecutive_handovers = 0;
      lock_index_.Erase(lock_id);
      free_locks_.push_back(index);
      return;
    }
    const auto next_waiter = lock.queue.begin() + static_cast<std::ptrdiff_t>(NextWaiter(lock));
    Waiter* waiter = *next_waiter;
    lock.queue.erase(next_waiter);
    Dequeued(lock, *waiter->client);
    lock.consecutive_handovers = hand_over ? lock.consecutive_handovers + 1 : 0;
    waiter->handed_over = hand_over;
    waiter->granted = true;
    next = waiter->client;  // the waiter may leave as soon as the guard drops
    spinners = static_cast<uint32_t>(lock.waiters_of_thread.size());
  }
  // Sherman's local lock is a ticket lock that waiters spin on: the others
  // still waiting slow the hand-off down, one per thread (a thread's
  // waiting coroutines yield to each other; one at a time polls the line).
  client.Unpark(*next, spinners);
}

}  // namespace dmbench::indexes::sherman
