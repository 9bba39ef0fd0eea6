// The requester side of a compute server's NIC, as SMART (ASPLOS'24 §3.1,
// §3.2) found it limits scale-up: doorbell registers that threads share
// under a spinlock, and a cache of outstanding work requests that thrashes
// when too many are in flight.
//
// Doorbells. rdma-core's mlx5 provider gives a device context a few
// dedicated registers, one QP each and lock-free, and binds every later QP
// to the least-used of its shared registers, whose updates take a spinlock
// (providers/mlx5: mlx5_get_qp_uar, post_send_db). QPs are created thread
// by thread, one per memory server, so QP k of a compute server is thread
// k / servers's. A ring holds its register's lock cpu_doorbell_ns, plus
// cpu_doorbell_spinner_ns for each other thread at the lock: the waiters
// spin on the lock's line, and every hand-off moves it between cores. A
// thread's ring is computed when it posts, and its CPU may be busy until
// later (an index-cache lookup charged before the post), so rings take the
// lock in the order their threads get there, not the order they were
// computed: a ring computed later but arriving earlier takes the lock first
// if it is free then. With per-thread doorbells (a thread domain per
// thread) nothing is shared and nothing is locked.
//
// Outstanding work requests. From the post of a batch to its completion its
// requests count as outstanding at the requester NIC. Past
// wqe_cache_entries, a request misses the cache with probability
// 1 - entries / outstanding (a cache holding a random subset of them) and
// its message-engine service takes wqe_miss_ns longer. Misses are counted
// with a carried fraction, not drawn, so that the mechanism consumes no
// random numbers and a run stays bit-identical with it off.
#include <algorithm>

#include "harness/rdma/sim/nic_model.h"
#include "harness/rdma/sim/sim_cluster.h"

namespace dmbench::rdma::sim {

uint32_t NicModel::DoorbellOf(uint32_t local_thread, uint32_t server) const {
  const uint64_t created = uint64_t{local_thread} * memory_servers_ + server;
  if (created < profile_.doorbells_dedicated) return kLockFreeDoorbell;
  // The least-used shared register, ties to the lowest: round-robin.
  return static_cast<uint32_t>((created - profile_.doorbells_dedicated) %
                               profile_.doorbells_shared);
}

SimTime NicModel::RingDoorbell(const SimClient& client, uint16_t server, SimTime ready) {
  const uint32_t index = QueuePairOf(client, server).doorbell;
  if (index == kLockFreeDoorbell) return ready + doorbell_;
  DoorbellLock& lock = RequesterNic(client).doorbells[index];
  const SimTime now = Now();
  std::erase_if(lock.rings, [&](const DoorbellLock::Ring& ring) { return ring.release <= now; });
  // The other threads at the lock: those with a ring not yet released,
  // which hold it or spin on it, or will as soon as their CPU gets there.
  // Threads, not rings: a thread posting a batch of rings spins for one at a
  // time. Counted when the ring is computed, not when its thread gets there
  // (which may be later): rings are computed as their batches are posted,
  // before the lock's later rings are known.
  const uint32_t thread = client.thread_.index;
  std::vector<uint32_t>& present = lock.present;
  present.clear();
  for (const DoorbellLock::Ring& ring : lock.rings) {
    if (ring.thread != thread &&
        std::find(present.begin(), present.end(), ring.thread) == present.end()) {
      present.push_back(ring.thread);
    }
  }
  const auto queued = static_cast<SimTime>(present.size());
  const SimTime released = lock.held.Serve(ready, doorbell_ + queued * doorbell_spinner_, now);
  lock.rings.push_back({thread, released});
  return released;
}

void NicModel::AddOutstanding(Nic& nic, uint32_t requests) {
  const SimTime now = Now();
  while (!nic.completions.empty() && nic.completions.top().first <= now) {
    nic.outstanding_requests -= nic.completions.top().second;
    nic.completions.pop();
  }
  nic.outstanding_requests += requests;
}

SimTime NicModel::WqeMissTime(Nic& nic) {
  const uint64_t entries = profile_.wqe_cache_entries;
  if (nic.outstanding_requests <= entries) return 0;
  nic.wqe_miss_credit +=
      1.0 - static_cast<double>(entries) / static_cast<double>(nic.outstanding_requests);
  if (nic.wqe_miss_credit < 1.0) return 0;
  nic.wqe_miss_credit -= 1.0;
  return wqe_miss_;
}

void NicModel::NoteCompletion(Nic& nic, SimTime done, uint32_t requests) {
  nic.completions.emplace(done, requests);
}

}  // namespace dmbench::rdma::sim
