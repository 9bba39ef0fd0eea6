// The local lock table of one compute server (paper §4.3, HOCL): clients of
// the same compute server that want the same global lock queue here, first
// come first served, instead of spinning on the memory server's NIC. A
// releasing client can hand the global lock to the head of the queue without
// any RDMA, a bounded number of times in a row so that other compute servers
// are not starved.
//
// Without wait queues (Sherman §5.7 measures the table with and without
// them: 99p 414 us without, 372 us with), the local lock is a plain
// spinlock: a freed lock goes to whichever waiter gets there first, drawn
// here uniformly from the waiters by a generator of the table's own, so a
// run stays a pure function of its seed.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "harness/rdma/client.h"
#include "harness/util/flat_u64_map.h"
#include "harness/util/optional_mutex.h"

namespace dmbench::indexes::sherman {

// Who gets a freed local lock.
enum class LocalWaitOrder : uint8_t {
  kFifo,       // first come first served: Sherman's ticket lock
  kUnordered,  // any waiter, uniformly: a spinlock without wait queues
};

class LocalLockTable {
 public:
  // `stream` seeds the draws of kUnordered; give each compute server's table
  // its own. `threads_share`: false if every client runs on one thread (see
  // util/optional_mutex.h).
  explicit LocalLockTable(LocalWaitOrder order = LocalWaitOrder::kFifo, uint64_t stream = 0,
                          bool threads_share = true)
      : order_(order), mutex_(threads_share), draws_(stream) {}

  // Returns once the caller owns the local lock `lock_id`; true if the global
  // lock came with it (handed over), false if the caller must still take it.
  bool Acquire(rdma::Client& client, uint64_t lock_id);
  // Whether releasing now should hand the global lock over: someone waits,
  // and fewer than `max_handovers` handovers happened in a row.
  bool ShouldHandOver(uint64_t lock_id, uint32_t max_handovers);
  // Passes the local lock to the next waiter (with the global lock if
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

  // The waiter the order serves next; the lock has at least one.
  size_t NextWaiter(const LocalLock& lock);
  // The lock `lock_id`, made free if nobody holds it. Holds mutex_.
  LocalLock& LockOf(uint64_t lock_id);
  // Where in locks_ the lock `lock_id` is, which someone holds; throws
  // std::logic_error if nobody does. Holds mutex_.
  uint32_t HeldIndex(uint64_t lock_id) const;

  const LocalWaitOrder order_;
  // Guards the table; never held across a verb or a Park.
  OptionalMutex<std::mutex> mutex_;
  uint64_t draws_;  // SplitMix64 state of kUnordered's draws, under mutex_
  // The locks someone holds, by id, as indices into locks_. A lock freed with
  // nobody waiting goes back to free_locks_ and is reused, queue and all: a
  // map node, a deque and its block per acquisition were three allocations
  // of every write's critical path.
  FlatU64Map lock_index_;
  std::deque<LocalLock> locks_;  // a deque, so that growing moves no lock
  std::vector<uint32_t> free_locks_;
};

}  // namespace dmbench::indexes::sherman
