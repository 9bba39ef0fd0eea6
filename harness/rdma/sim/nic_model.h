// The NICs, links and PCIe buses of the simulated cluster: when each work
// request executes at its responder and when its completion reaches the
// requester. SimCluster owns the event loop, the memory and the clients;
// this is the part a user calibrates (every number comes from NicProfile).
//
// Timing of a work request: the requester NIC's message engine, the link
// (serialization at both ends plus latency), the responder NIC's message
// engine, then the memory access: PCIe DMA for host memory, nothing for
// on-chip memory, the atomic unit for atomics. The response travels back the
// same way. Work requests on one QP (one per client thread and memory
// server) take effect in posting order. Each mechanism has its own place:
//   - message rates, links, PCIe: nic_model.cc, with SerialResource;
//   - atomic buckets and their arbitration: nic_atomics.cc;
//   - responder processing units and head-of-line blocking behind atomics:
//     nic_atomics.cc too, since only an atomic holds a unit for long;
//   - requester doorbell registers and the cache of outstanding work
//     requests (SMART, ASPLOS'24 §3.1-3.2): nic_requester.cc.
//
// Thread safety: none; the simulation runs on one OS thread.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "harness/rdma/sim/event_queue.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/rdma/sim/serial_resource.h"
#include "harness/rdma/sim/sim_client.h"
#include "harness/rdma/sim/unloaded_timing.h"
#include "harness/rdma/topology.h"
#include "harness/util/random.h"

namespace dmbench::rdma::sim {

class SimCluster;

// The processing unit (of `units`) that the QP of client thread `thread` to
// memory server `server` is bound to: a hash, deterministic, in [0, units).
uint32_t ProcessingUnitOf(uint32_t thread, uint16_t server, uint64_t units);

class NicModel {
 public:
  using Batch = SimClient::InFlightBatch;

  // `cluster` (its memory, clock and clients) and `events` must outlive this.
  // `per_thread_doorbells`: each client thread rings a doorbell of its own
  // (SMART's thread-aware allocation) instead of the driver's default
  // assignment of QPs to doorbells.
  NicModel(const NicProfile& profile, const Topology& topology, SimCluster& cluster,
           EventQueue& events, Random& random, bool per_thread_doorbells);

  // Posts `batches` of `client` (one per QP) at the client thread's current
  // time, charging the posting CPU; the client resumes (kResume) when all
  // have completed.
  void Post(SimClient& client, std::span<const std::span<WorkRequest>> batches);
  // Posts one batch (event group `group`) that nobody waits for: the client
  // pays the posting CPU and goes on; kDetachedDone fires at its last response.
  void PostWithoutWaiting(SimClient& client, Batch& batch, std::span<WorkRequest> requests,
                          uint16_t group);
  // Event handlers.
  void AtomicArrives(Batch& batch, uint32_t index);
  void ReleaseBucket(uint16_t nic, uint32_t bucket);
  // Forgets all queued work (after a failed run), keeping when resources free up.
  void DropQueuedWork();

  // What each of a memory server's NicProfile::atomic_buckets costs, waiters aside.
  static constexpr size_t kBytesPerAtomicBucket = 16;

 private:
  // Addresses whose atomics serialize. 16 bytes: a NIC has thousands, and a
  // queue object in each (a deque, 80 bytes) made their arrays megabytes and
  // every atomic's arrival a cache miss, though few buckets ever have waiters.
  struct AtomicBucket {
    SimTime free_at = 0;
    // The batches whose next request is an atomic on this bucket, in arrival
    // order: queue `queue` of Nic::bucket_queues, or none (kNoQueue).
    uint32_t queue = kNoQueue;
    bool release_scheduled = false;
  };
  static constexpr uint32_t kNoQueue = UINT32_MAX;
  static_assert(sizeof(AtomicBucket) == kBytesPerAtomicBucket);
  // A responder processing unit. Requests of its QPs pass it in the order
  // they reach it; an atomic holds it from when it gets there until answered
  // (see nic_atomics.cc).
  struct ProcessingUnit {
    SimTime free_at = 0;  // the last holding atomic's answer
    struct Waiting {
      Batch* batch = nullptr;
      uint32_t index = 0;  // the first request of `batch` not yet scheduled
    };
    // An atomic holds the unit, or will from `held_from` on: it is scheduled
    // when posted, before it gets there, and what reaches the unit earlier
    // goes ahead of it.
    bool blocked = false;
    SimTime held_from = 0;
    Waiting holder;  // that atomic
    // What reached the unit while it was held, in order, and the rest of a
    // batch whose atomic held it, in front.
    std::deque<Waiting> waiting;
  };
  // An atomic that found its bucket busy and holds its processing unit
  // because every parking slot was taken.
  struct UnparkedAtomic {
    Batch* batch;
    uint32_t index;
  };
  // The spinlock of a shared doorbell register of a compute server's device
  // context (nic_requester.cc).
  struct DoorbellLock {
    struct Ring {
      uint32_t thread;
      SimTime release;
    };
    SerialResource held;            // when a ring holds the lock
    std::vector<Ring> rings;        // not yet released: their threads spin or hold
    std::vector<uint32_t> present;  // scratch of RingDoorbell
  };
  // Completions the requester NIC still counts as outstanding: (when, how many).
  using CompletionQueue =
      std::priority_queue<std::pair<SimTime, uint32_t>, std::vector<std::pair<SimTime, uint32_t>>,
                          std::greater<>>;
  struct Nic {
    SerialResource outbound;  // message engine, requests issued
    SerialResource inbound;   // message engine, requests served
    SerialResource link_tx;
    SerialResource link_rx;
    SerialResource pcie_to_host;
    SerialResource pcie_to_nic;
    std::vector<AtomicBucket> buckets;
    // The waiting batches of the buckets that have some, and the queues free
    // for reuse (AtomicBucket::queue).
    std::vector<std::vector<Batch*>> bucket_queues;
    std::vector<uint32_t> free_bucket_queues;
    std::vector<ProcessingUnit> units;
    uint64_t parked_atomics = 0;              // waiting for a bucket, unit released
    std::deque<UnparkedAtomic> slot_waiters;  // in arrival order
    // Requester side (compute NICs).
    std::vector<DoorbellLock> doorbells;  // the shared ones; dedicated ones take no lock
    uint64_t outstanding_requests = 0;    // posted, completion not yet reached
    CompletionQueue completions;
    double wqe_miss_credit = 0;  // fractional misses carried over, for determinism
  };
  struct QueuePair {
    SimTime last_write_end = 0;             // everything after waits for writes
    SimTime last_access_end = 0;            // writes wait for everything before
    uint32_t unit = 0;                      // its processing unit at the responder
    uint32_t doorbell = kLockFreeDoorbell;  // index into its requester's shared doorbells
    // An atomic of this QP on its way or waiting, not yet executed (batch
    // null: none): what the QP posted after it waits in `waiting`, in
    // posting order, also while the atomic sits in a parking slot or units
    // are not modelled.
    ProcessingUnit::Waiting pending_atomic;
    std::vector<ProcessingUnit::Waiting> waiting;
    // Its requests in its unit's `waiting`: while there are any, what it
    // posted later queues behind them, even if it would reach the unit
    // before the atomic that holds it.
    uint32_t unit_queued = 0;
  };
  static constexpr uint32_t kLockFreeDoorbell = UINT32_MAX;

  // Makes `batch` the batch `index` (its event group) of `client`, holding
  // `requests`, and posts it from a thread whose CPU is free at `cpu_time`;
  // returns when the CPU is done posting it.
  SimTime ScheduleRequester(Batch& batch, SimClient& client, uint16_t index,
                            std::span<WorkRequest> requests, SimTime cpu_time);
  // Requester mechanisms (nic_requester.cc).
  // The doorbell register of the QP that thread `local_thread` of a compute
  // server opens to memory server `server`, with the driver's assignment:
  // an index into the shared ones, or kLockFreeDoorbell.
  uint32_t DoorbellOf(uint32_t local_thread, uint32_t server) const;
  // Rings the doorbell of `client`'s QP to `server` from a CPU ready at
  // `ready`; returns when the thread's CPU is done ringing.
  SimTime RingDoorbell(const SimClient& client, uint16_t server, SimTime ready);
  // Counts `requests` more outstanding at `nic`, forgetting those completed.
  void AddOutstanding(Nic& nic, uint32_t requests);
  // The message-engine time one more work request adds when it misses the cache.
  SimTime WqeMissTime(Nic& nic);
  void NoteCompletion(Nic& nic, SimTime done, uint32_t requests);

  // Where the requests ScheduleResponder is given come from, which says what
  // of their QP may still wait ahead of them. A QP's waiting requests are in
  // its unit's `waiting` and in its own `waiting`, every one of the first
  // ahead of every one of the second; each place keeps posting order.
  enum class Origin {
    kPosted,       // just posted: whatever of its QP waits is ahead of it
    kQueuePair,    // released from its QP's `waiting`, oldest first: what of
                   // its QP waits at its unit is ahead of it
    kFirstInLine,  // nothing of its QP waits ahead of it: the front of its
                   // unit's queue, or the rest of a batch whose atomic executed
  };
  // Schedules the batch's requests from `from` on until one must wait (an
  // atomic, its QP's atomic, or a held processing unit). `reads_at_resume`:
  // its READs go to the client's reads_at_resume_ instead of having events
  // (see Post).
  void ScheduleResponder(Batch& batch, uint32_t from, bool reads_at_resume = false,
                         Origin origin = Origin::kPosted);
  // `first`, the front of the unit's queue, meets an atomic of its own QP
  // that has not executed: it waits in the QP's `waiting` ahead of what the
  // QP posted later, and so do the QP's requests still at `unit` (null:
  // units are not modelled), which it was ahead of.
  void WaitAheadOfQueuePair(QueuePair& queue_pair, ProcessingUnit* unit,
                            ProcessingUnit::Waiting first);
  // When request `index` of `batch` may reach its processing unit (`unit`
  // null: units are not modelled), as its QP's order and the unit's last
  // holder allow.
  SimTime UnitArrival(const Batch& batch, uint32_t index, const QueuePair& queue_pair,
                      const ProcessingUnit* unit) const;
  // Whether every batch of `client`'s post is scheduled at once, with no
  // atomic or blocked processing unit to wait for, and its READs need no
  // randomness: then they may be resolved when the client resumes.
  bool ReadsMayWaitForResume(const SimClient& client);
  // Once the post's completion time is known: its READs that would be
  // resolved long after their DMA get events after all, so that the memory
  // regions' write logs stay short.
  void SettleReadsAtResume(SimClient& client);
  // How long after its DMA a READ may be resolved at its client's resumption
  // (the write logs reach back that far): unloaded, a response takes about a
  // microsecond after the DMA; this leaves room for queues on the way back.
  static constexpr SimTime kLongestReadDelay = 8'000 * kPicosecondsPerNanosecond;
  void Respond(Batch& batch, SimTime ready, uint32_t payload_bytes);
  void ExecuteAtomic(Batch& batch, uint32_t index, AtomicBucket& bucket);
  // Queues an atomic at its busy bucket (scheduling the bucket's release).
  void QueueAtBucket(Batch& batch, uint32_t index, AtomicBucket& bucket);
  // The waiters of `bucket` (of `nic`), given a queue if it had none. The
  // reference lasts until a queue is given to another bucket.
  static std::vector<Batch*>& WaitersOf(Nic& nic, AtomicBucket& bucket);
  // Moves a waiting atomic off its processing unit into a parking slot;
  // `queued`: it already waits at its bucket.
  void Park(Nic& nic, Batch& batch, uint32_t index, bool queued);
  // After an atomic is answered: its unit serves what queued behind it.
  void UnblockUnit(ProcessingUnit& unit, SimTime answered);
  // Serves the unit's queue in order, while the unit is free or the front
  // reaches it before its holder does.
  void ServeUnitQueue(ProcessingUnit& unit);
  // An atomic reaches `unit` before the holder that has not got there yet:
  // the holder goes to the front of the unit's queue, and its arrival event
  // is ignored (Batch::stale_arrivals).
  void Displace(ProcessingUnit& unit);
  // After a QP's atomic executed: what the QP posted after it goes on, in
  // order, until another atomic of the QP holds the rest.
  void ReleaseQueuePair(QueuePair& queue_pair);
  SimTime Now() const;

  Nic& RequesterNic(const SimClient& client) {
    return nics_[compute_nic_[client.location().compute_server]];
  }
  Nic& ResponderNic(uint16_t server) { return nics_[memory_nic_[server]]; }
  bool Loopback(const SimClient& client, uint16_t server) const {
    return compute_nic_[client.location().compute_server] == memory_nic_[server];
  }
  QueuePair& QueuePairOf(const SimClient& client, uint16_t server) {
    return queue_pairs_[static_cast<size_t>(client.thread_.index) * memory_servers_ + server];
  }
  QueuePair& QueuePairOf(const Batch& batch) {
    return QueuePairOf(*batch.client, batch.requests.front().remote.server);
  }
  ProcessingUnit* UnitOf(const SimClient& client, uint16_t server) {
    if (!units_modelled_) return nullptr;
    return &ResponderNic(server).units[QueuePairOf(client, server).unit];
  }
  // Stage prices shared with UnloadedReadTime (unloaded_timing.h), from
  // tables for the sizes verbs carry: each price is a division or two, and
  // a verb asks for three or four.
  SimTime Wire(uint64_t payload_bytes) const {
    return payload_bytes < kTabledBytes ? wire_times_[payload_bytes]
                                        : WireTime(profile_, payload_bytes);
  }
  SimTime PcieTransfer(uint64_t bytes) const {
    return bytes < kTabledBytes ? pcie_times_[bytes] : PcieTransferTime(profile_, bytes);
  }
  static constexpr uint64_t kTabledBytes = 4097;  // a 4 KiB node's READ and below
  uint32_t BucketOf(const GlobalAddress& address) const {
    return static_cast<uint32_t>(address.offset & (profile_.atomic_buckets - 1));
  }

  const NicProfile& profile_;
  SimCluster& cluster_;
  EventQueue& events_;
  Random& random_;
  uint32_t memory_servers_;
  bool units_modelled_;
  bool wqe_cache_modelled_;

  // Derived once: service times in picoseconds.
  SimTime outbound_service_, inbound_service_, nic_latency_, link_latency_;
  SimTime pcie_read_latency_, pcie_write_latency_, on_chip_access_, atomic_on_chip_;
  SimTime doorbell_, post_request_, doorbell_spinner_, wqe_miss_;
  // WireTime and PcieTransferTime of [0, kTabledBytes) bytes.
  std::vector<SimTime> wire_times_, pcie_times_;

  std::vector<Nic> nics_;
  std::vector<uint16_t> compute_nic_;
  std::vector<uint16_t> memory_nic_;
  std::vector<QueuePair> queue_pairs_;
};

}  // namespace dmbench::rdma::sim
