// A mutex that locks only if threads share what it guards.
//
// The simulated fabric runs every client as a coroutine on one thread, so
// the compute-side structures its clients share (a compute server's index
// cache, its copies of the top levels) are never touched by two threads at
// once; locking them anyway, an atomic read-modify-write per lock and per
// unlock, was 5% of a simulation's time. The real backends run a thread per
// client and lock. Whether threads share is fixed at construction.
//
// A holder must not suspend its coroutine (no verb, no Park) while it holds
// the lock: with real locks a second coroutine of the same thread would
// deadlock, so code correct on every backend never does.
#pragma once

#include <utility>

namespace dmbench {

template <typename Mutex>
class OptionalMutex {
 public:
  // `mutex_args` construct the mutex (tests pass a recording one).
  template <typename... MutexArgs>
  explicit OptionalMutex(bool threads_share = true, MutexArgs&&... mutex_args)
      : mutex_(std::forward<MutexArgs>(mutex_args)...), threads_share_(threads_share) {}
  OptionalMutex(const OptionalMutex&) = delete;
  OptionalMutex& operator=(const OptionalMutex&) = delete;

  void lock() {
    if (threads_share_) mutex_.lock();
  }
  bool try_lock() { return !threads_share_ || mutex_.try_lock(); }
  void unlock() {
    if (threads_share_) mutex_.unlock();
  }
  void lock_shared() requires requires(Mutex& m) { m.lock_shared(); }
  {
    if (threads_share_) mutex_.lock_shared();
  }
  void unlock_shared() requires requires(Mutex& m) { m.unlock_shared(); }
  {
    if (threads_share_) mutex_.unlock_shared();
  }

 private:
  Mutex mutex_;
  const bool threads_share_;
};

}  // namespace dmbench
