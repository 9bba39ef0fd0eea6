// The local lock table of one compute server (paper §4.3, HOCL): clients of
// the same compute server that want the same global lock queue here, first
// come first served, instead of spinning on the memory server's NIC. A
// releasing client can hand the global lock to the head of the queue without
// any RDMA, a bounded number of times in a row so that other compute servers
// are not starved.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "harness/rdma/client.h"

namespace dmbench::indexes::sherman {

class LocalLockTable {
 public:
  // Returns once the caller owns the local lock `lock_id`; true if the global
  // lock came with it (handed over), false if the caller must still take it.
  bool Acquire(rdma::Client& client, uint64_t lock_id);
  // Whether releasing now should hand the global lock over: someone waits,
  // and fewer than `max_handovers` handovers happened in a row.
  bool ShouldHandOver(uint64_t lock_id, uint32_t max_handovers);
  // Passes the local lock to the first waiter (with the global lock if
  // `hand_over`), or frees it. Call after the write-back has completed.
  void Release(rdma::Client& client, uint64_t lock_id, bool hand_over);

 private:
  struct Waiter {
    rdma::Client* client;
    bool granted = false;
    bool handed_over = false;
  };
  struct LocalLock {
    bool held = false;
    std::deque<Waiter*> queue;
    uint32_t consecutive_handovers = 0;
    // Waiters per client thread, and how many threads have one: a thread's
    // coroutines take turns on its core, so at most one of them spins at a
    // time.
    std::unordered_map<uint32_t, uint32_t> waiters_of_thread;
  };
  static void Enqueue(LocalLock& lock, Waiter* waiter);
  // Drops one waiter of `client`'s thread from the counts.
  static void Dequeued(LocalLock& lock, const rdma::Client& client);

  // Guards the table; never held across a verb or a Park.
  std::mutex mutex_;
  std::unordered_map<uint64_t, LocalLock> locks_;
};

}  // namespace dmbench::indexes::sherman
