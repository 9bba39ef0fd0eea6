// Atomics at the responder NIC, and the processing units they hold.
//
// Buckets: the NIC serializes atomics whose target addresses share their low
// bits (Kalia et al., ATC'16 §5.4: 4096 slots; Sherman §3.2.2). A host-memory
// atomic holds its bucket for a PCIe read and, unless a CAS fails, a PCIe
// write; an on-chip atomic for atomic_on_chip_ns. When a bucket frees up, the
// profile's arbitration picks the next waiter: arrival order, or any waiter
// at random (no public source says which a ConnectX uses).
//
// Processing units: "PUs acquire an internal lock for the target address and
// issue read-modify-write over PCIe ... atomic operations contend with
// non-atomic verbs too" (ATC'16 §3.4), and requests of one QP are handled by
// one PU (§3.3). So an atomic holds its unit from the moment it reaches it
// until its read returns; every request of every QP bound to that unit waits
// behind it, in order. An atomic whose bucket is busy may instead wait in
// one of the NIC's parking slots (atomic_parking_slots), releasing its unit
// until the bucket grants it; with every slot taken it waits on its unit.
// With units off (processing_units 0) only the atomic's own QP waits.
//
// The model schedules a request when it is posted, before it gets to its
// unit. So a unit knows when the atomic that will hold it gets there
// (ProcessingUnit::held_from), and a request of another QP that reaches the
// unit first goes ahead; an atomic that gets there first takes the unit, and
// the one it overtook waits behind it (Displace). The converse is not
// modelled: a request already scheduled is not held back by an atomic that
// is posted after it yet overtakes it on the way, since its reservations of
// links and PCIe are made.
#include <algorithm>

#include "harness/rdma/sim/nic_model.h"
#include "harness/rdma/sim/sim_cluster.h"

namespace dmbench::rdma::sim {

void NicModel::AtomicArrives(Batch& batch, uint32_t index) {
  if (batch.stale_arrivals > 0) {
    --batch.stale_arrivals;  // displaced on its way: it arrives again later
    return;
  }
  const GlobalAddress& address = batch.requests[index].remote;
  AtomicBucket& bucket = ResponderNic(address.server).buckets[BucketOf(address)];
  if (bucket.queue == kNoQueue && bucket.free_at <= Now()) {
    ExecuteAtomic(batch, index, bucket);
    return;
  }
  if (!units_modelled_) {
    QueueAtBucket(batch, index, bucket);
    return;
  }
  Nic& nic = ResponderNic(address.server);
  if (nic.parked_atomics < profile_.atomic_parking_slots) {
    Park(nic, batch, index, /*queued=*/false);
    return;
  }
  // No slot: it waits at its bucket on its unit, and so does everything
  // behind it, until it is granted or a slot frees up.
  QueueAtBucket(batch, index, bucket);
  nic.slot_waiters.push_back({&batch, index});
}

void NicModel::QueueAtBucket(Batch& batch, uint32_t index, AtomicBucket& bucket) {
  const GlobalAddress& address = batch.requests[index].remote;
  batch.waiting_atomic = index;
  WaitersOf(ResponderNic(address.server), bucket).push_back(&batch);
  if (!bucket.release_scheduled) {
    bucket.release_scheduled = true;
    events_.Push(std::max(bucket.free_at, Now()), EventKind::kBucketRelease, nullptr,
                 BucketOf(address), memory_nic_[address.server]);
  }
}

void NicModel::Park(Nic& nic, Batch& batch, uint32_t index, bool queued) {
  const GlobalAddress& address = batch.requests[index].remote;
  ++nic.parked_atomics;
  batch.atomic_parked = true;
  if (!queued) QueueAtBucket(batch, index, nic.buckets[BucketOf(address)]);
  UnblockUnit(*UnitOf(*batch.client, address.server), Now());
}

std::vector<NicModel::Batch*>& NicModel::WaitersOf(Nic& nic, AtomicBucket& bucket) {
  if (bucket.queue == kNoQueue) {
    if (nic.free_bucket_queues.empty()) {
      bucket.queue = static_cast<uint32_t>(nic.bucket_queues.size());
      nic.bucket_queues.emplace_back();
    } else {
      bucket.queue = nic.free_bucket_queues.back();
      nic.free_bucket_queues.pop_back();
    }
  }
  return nic.bucket_queues[bucket.queue];
}

void NicModel::ReleaseBucket(uint16_t nic, uint32_t bucket_index) {
  Nic& owner = nics_[nic];
  AtomicBucket& bucket = owner.buckets[bucket_index];
  bucket.release_scheduled = false;
  std::vector<Batch*>& waiting = WaitersOf(owner, bucket);
  size_t next = 0;
  if (profile_.atomic_bucket_arbitration == BucketArbitration::kRandom) {
    next = random_.Uniform(waiting.size());
  }
  Batch& batch = *waiting[next];
  waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(next));
  ExecuteAtomic(batch, batch.waiting_atomic, bucket);
  // (Looked up again: the atomic's answer may have queued atomics elsewhere.)
  if (!owner.bucket_queues[bucket.queue].empty()) {
    bucket.release_scheduled = true;
    events_.Push(bucket.free_at, EventKind::kBucketRelease, nullptr, bucket_index, nic);
    return;
  }
  owner.free_bucket_queues.push_back(bucket.queue);
  bucket.queue = kNoQueue;
}

void NicModel::ExecuteAtomic(Batch& batch, uint32_t index, AtomicBucket& bucket) {
  WorkRequest& request = batch.requests[index];
  const uint16_t server = request.remote.server;
  MemoryRegion& region = cluster_.memory(server, request.remote.space);
  const SimTime now = Now();
  const uint64_t old_value = region.ReadWord(request.remote.offset);
  request.old_value = old_value;
  const bool writes = request.verb == Verb::kFetchAndAdd || request.Succeeded();
  if (writes) region.WriteWord(request.remote.offset, AtomicResult(request, old_value), now);

  SimTime occupancy = atomic_on_chip_;
  SimTime answered = now + atomic_on_chip_;
  if (request.remote.space == MemorySpace::kHost) {
    // Read the word over PCIe; write it back unless the CAS failed.
    occupancy = pcie_read_latency_ + (writes ? pcie_write_latency_ : 0);
    answered = now + pcie_read_latency_;
  }
  bucket.free_at = now + occupancy;
  QueuePair& queue_pair = QueuePairOf(*batch.client, server);
  queue_pair.last_write_end = std::max(queue_pair.last_write_end, now + occupancy);
  queue_pair.last_access_end = std::max(queue_pair.last_access_end, now + occupancy);
  queue_pair.pending_atomic = {};
  Respond(batch, answered, 8);
  ProcessingUnit* unit = UnitOf(*batch.client, server);
  const bool was_parked = batch.atomic_parked;
  batch.atomic_parked = false;
  if (unit != nullptr && !was_parked) {
    // Granted while it waited for a slot, if it did: it no longer wants one.
    Nic& nic = ResponderNic(server);
    const auto waiter = std::find_if(
        nic.slot_waiters.begin(), nic.slot_waiters.end(),
        [&](const UnparkedAtomic& w) { return w.batch == &batch && w.index == index; });
    if (waiter != nic.slot_waiters.end()) nic.slot_waiters.erase(waiter);
  }
  // The rest of this batch comes before what its QP posted later, and
  // before what queued at its unit meanwhile. Unparked, it held its unit,
  // so the rest queues at the unit's front, served first once it is free.
  ScheduleResponder(batch, index + 1, /*reads_at_resume=*/false, Origin::kFirstInLine);
  // Unparked, it held its unit until answered, and so everything its QP
  // posted later.
  if (unit != nullptr && !was_parked) UnblockUnit(*unit, answered);
  ReleaseQueuePair(queue_pair);
  if (unit == nullptr || !was_parked) return;
  // Its parking slot goes to the longest-waiting atomic that holds a unit.
  Nic& nic = ResponderNic(server);
  --nic.parked_atomics;
  if (!nic.slot_waiters.empty()) {
    const UnparkedAtomic next = nic.slot_waiters.front();
    nic.slot_waiters.pop_front();
    Park(nic, *next.batch, next.index, /*queued=*/true);
  }
}

void NicModel::UnblockUnit(ProcessingUnit& unit, SimTime answered) {
  unit.blocked = false;
  unit.free_at = std::max(unit.free_at, answered);
  ServeUnitQueue(unit);
}

void NicModel::ServeUnitQueue(ProcessingUnit& unit) {
  // In order until an atomic holds the unit again, or will before the front
  // gets there; what is left keeps its place.
  while (!unit.waiting.empty()) {
    const ProcessingUnit::Waiting next = unit.waiting.front();
    QueuePair& queue_pair = QueuePairOf(*next.batch);
    if (unit.blocked && UnitArrival(*next.batch, next.index, queue_pair, &unit) >= unit.held_from) {
      return;
    }
    unit.waiting.pop_front();
    --queue_pair.unit_queued;
    ScheduleResponder(*next.batch, next.index, /*reads_at_resume=*/false, Origin::kFirstInLine);
  }
}

void NicModel::Displace(ProcessingUnit& unit) {
  const ProcessingUnit::Waiting holder = unit.holder;
  ++holder.batch->stale_arrivals;
  unit.waiting.push_front(holder);
  ++QueuePairOf(*holder.batch).unit_queued;
}

void NicModel::ReleaseQueuePair(QueuePair& queue_pair) {
  // Oldest first, each off the list before it is scheduled, which may put
  // it back (behind the QP's requests at its unit) or start another atomic.
  while (queue_pair.pending_atomic.batch == nullptr && !queue_pair.waiting.empty()) {
    const ProcessingUnit::Waiting request = queue_pair.waiting.front();
    queue_pair.waiting.erase(queue_pair.waiting.begin());
    ScheduleResponder(*request.batch, request.index, /*reads_at_resume=*/false, Origin::kQueuePair);
  }
}

void NicModel::DropQueuedWork() {
  for (Nic& nic : nics_) {
    for (AtomicBucket& bucket : nic.buckets) {
      bucket.queue = kNoQueue;
      bucket.release_scheduled = false;
    }
    nic.bucket_queues.clear();
    nic.free_bucket_queues.clear();
    for (ProcessingUnit& unit : nic.units) {
      unit.waiting.clear();
      unit.blocked = false;
      unit.holder = {};
    }
    nic.parked_atomics = 0;
    nic.slot_waiters.clear();
    nic.outstanding_requests = 0;
    nic.completions = {};
  }
  for (QueuePair& queue_pair : queue_pairs_) {
    queue_pair.pending_atomic = {};
    queue_pair.waiting.clear();
    queue_pair.unit_queued = 0;
  }
}

}  // namespace dmbench::rdma::sim
