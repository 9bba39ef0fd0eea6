// Message engines, links and PCIe: the timing of READs, WRITEs and of every
// response. Atomics and processing units are in nic_atomics.cc.
#include "harness/rdma/sim/nic_model.h"

#include <algorithm>

#include <xxhash.h>

#include "harness/rdma/sim/sim_cluster.h"
#include "harness/rdma/sim/unloaded_timing.h"

namespace dmbench::rdma::sim {

uint32_t ProcessingUnitOf(uint32_t thread, uint16_t server, uint64_t units) {
  if (units == 0) return 0;
  // A hash, not thread % units: with a modulo, threads of one role (say
  // every range reader, or every inserter) can land on disjoint units and
  // never meet, which no NIC promises. The memory server is hashed in so
  // that one thread's QPs do not share a unit index everywhere.
  const uint64_t queue_pair = (uint64_t{thread} << 16) | server;
  return static_cast<uint32_t>(XXH3_64bits(&queue_pair, sizeof(queue_pair)) % units);
}

NicModel::NicModel(const NicProfile& profile, const Topology& topology, SimCluster& cluster,
                   EventQueue& events, Random& random, bool per_thread_doorbells)
    : profile_(profile),
      cluster_(cluster),
      events_(events),
      random_(random),
      memory_servers_(topology.memory_servers),
      units_modelled_(profile.processing_units > 0),
      wqe_cache_modelled_(profile.wqe_cache_entries > 0),
      outbound_service_(MessageServiceTime(profile.nic_outbound_mops)),
      inbound_service_(MessageServiceTime(profile.nic_inbound_mops)),
      nic_latency_(Nanoseconds(profile.nic_latency_ns)),
      link_latency_(Nanoseconds(profile.link_latency_ns)),
      pcie_read_latency_(Nanoseconds(profile.pcie_read_latency_ns)),
      pcie_write_latency_(Nanoseconds(profile.pcie_write_latency_ns)),
      on_chip_access_(Nanoseconds(profile.on_chip_access_ns)),
      atomic_on_chip_(Nanoseconds(profile.atomic_on_chip_ns)),
      doorbell_(Nanoseconds(profile.cpu_doorbell_ns)),
      post_request_(Nanoseconds(profile.cpu_post_request_ns)),
      doorbell_spinner_(Nanoseconds(profile.cpu_doorbell_spinner_ns)),
      wqe_miss_(Nanoseconds(profile.wqe_miss_ns)) {
  wire_times_.resize(kTabledBytes);
  pcie_times_.resize(kTabledBytes);
  for (uint64_t bytes = 0; bytes < kTabledBytes; ++bytes) {
    wire_times_[bytes] = WireTime(profile, bytes);
    pcie_times_[bytes] = PcieTransferTime(profile, bytes);
  }
  // Machine i carries memory server i and, when co-located, compute server i.
  const uint32_t nic_count = topology.colocated
                                 ? topology.memory_servers
                                 : topology.memory_servers + topology.compute_servers;
  nics_.resize(nic_count);
  for (uint32_t server = 0; server < topology.memory_servers; ++server) {
    memory_nic_.push_back(static_cast<uint16_t>(server));
    nics_[server].buckets.resize(profile.atomic_buckets);
    nics_[server].units.resize(profile.processing_units);
  }
  const bool doorbells_shared = profile.doorbells_shared > 0 && !per_thread_doorbells;
  for (uint32_t server = 0; server < topology.compute_servers; ++server) {
    compute_nic_.push_back(
        static_cast<uint16_t>(topology.colocated ? server : topology.memory_servers + server));
    if (doorbells_shared) nics_[compute_nic_.back()].doorbells.resize(profile.doorbells_shared);
  }
  const uint32_t threads = topology.compute_servers * topology.threads_per_compute_server;
  queue_pairs_.resize(static_cast<size_t>(threads) * memory_servers_);
  for (uint32_t thread = 0; thread < threads; ++thread) {
    for (uint32_t server = 0; server < memory_servers_; ++server) {
      QueuePair& queue_pair = queue_pairs_[static_cast<size_t>(thread) * memory_servers_ + server];
      queue_pair.unit =
          ProcessingUnitOf(thread, static_cast<uint16_t>(server), profile.processing_units);
      if (doorbells_shared) {
        queue_pair.doorbell = DoorbellOf(thread % topology.threads_per_compute_server, server);
      }
    }
  }
}

SimTime NicModel::Now() const { return cluster_.now(); }

void NicModel::Post(SimClient& client, std::span<const std::span<WorkRequest>> batches) {
  SimTime posted = client.ThreadTime();
  client.in_flight_.resize(batches.size());
  client.batches_scheduling_ = static_cast<uint32_t>(batches.size());
  client.all_done_ = 0;
  for (size_t b = 0; b < batches.size(); ++b) {
    posted = ScheduleRequester(client.in_flight_[b], client, static_cast<uint16_t>(b), batches[b],
                               posted);
  }
  client.thread_.cpu_free_at = posted;
  // A READ is resolved, its bytes copied, when its DMA ends; nothing can see
  // its bytes before its client resumes, and the regions' write logs can
  // undo what landed in between. So when the whole post is scheduled here,
  // its READs are resolved as the client resumes, which spares an event
  // each: half the events of a lookup.
  client.reads_at_resume_.clear();
  const bool reads_at_resume = ReadsMayWaitForResume(client);
  for (Batch& batch : client.in_flight_) ScheduleResponder(batch, 0, reads_at_resume);
  if (reads_at_resume) SettleReadsAtResume(client);
}

bool NicModel::ReadsMayWaitForResume(const SimClient& client) {
  // A random DMA order draws from the simulation's generator, which the
  // atomics' arbitration shares: resolving later would reorder the draws.
  if (!cluster_.options().reads_at_resume || profile_.dma_read_order == DmaOrder::kRandom) {
    return false;
  }
  for (const Batch& batch : client.in_flight_) {
    const uint16_t server = batch.requests.front().remote.server;
    const ProcessingUnit* unit = UnitOf(client, server);
    if (unit != nullptr && unit->blocked) return false;
    if (QueuePairOf(client, server).pending_atomic.batch != nullptr) return false;
    for (const WorkRequest& request : batch.requests) {
      if (IsAtomic(request.verb)) return false;
    }
  }
  return true;
}

void NicModel::SettleReadsAtResume(SimClient& client) {
  // Every batch was scheduled, so the resumption time is final.
  size_t kept = 0;
  for (const SimClient::ReadAtResume read : client.reads_at_resume_) {
    const Batch& batch = client.in_flight_[read.group];
    const SimClient::Timing& timing = batch.timing[read.request];
    if (client.all_done_ - timing.dma_end > kLongestReadDelay) {
      events_.Push(timing.dma_end, EventKind::kExecuteRead, &client, read.request, read.group);
      continue;
    }
    const WorkRequest& request = batch.requests[read.request];
    cluster_.memory(request.remote.server, request.remote.space)
        .NoteReadWindow(client.all_done_ - timing.dma_start);
    client.reads_at_resume_[kept++] = read;
  }
  client.reads_at_resume_.resize(kept);
}

void NicModel::PostWithoutWaiting(SimClient& client, Batch& batch, std::span<WorkRequest> requests,
                                  uint16_t group) {
  client.thread_.cpu_free_at =
      ScheduleRequester(batch, client, group, requests, client.ThreadTime());
  ScheduleResponder(batch, 0);
}

SimTime NicModel::ScheduleRequester(Batch& batch, SimClient& client, uint16_t index,
                                    std::span<WorkRequest> requests, SimTime cpu_time) {
  batch.client = &client;
  batch.index = index;
  batch.requests = requests;
  batch.done = 0;
  // A batch slot is reused from post to post, and a failed run leaves its
  // batches wherever they were (DropQueuedWork forgets the NICs' side only):
  // an atomic still marked parked would be answered as a parked one, which
  // never unblocks its processing unit.
  batch.waiting_atomic = 0;
  batch.atomic_parked = false;
  batch.stale_arrivals = 0;
  // Each work request is built, then one doorbell rings for the batch.
  const uint16_t server = batch.requests.front().remote.server;
  const SimTime posted = RingDoorbell(
      client, server, cpu_time + static_cast<SimTime>(requests.size()) * post_request_);
  Nic& requester = RequesterNic(*batch.client);
  if (wqe_cache_modelled_) AddOutstanding(requester, static_cast<uint32_t>(requests.size()));
  Nic& responder = ResponderNic(server);
  const bool loopback = Loopback(*batch.client, server);
  const SimTime now = Now();
  batch.timing.resize(batch.requests.size());
  for (size_t i = 0; i < batch.requests.size(); ++i) {
    const WorkRequest& request = batch.requests[i];
    const SimTime service =
        wqe_cache_modelled_ ? outbound_service_ + WqeMissTime(requester) : outbound_service_;
    SimTime at = requester.outbound.Serve(posted, service, now) + nic_latency_;
    if (!loopback) {
      const SimTime wire = Wire(request.verb == Verb::kWrite ? request.length : 0);
      at = requester.link_tx.Serve(at, wire, now) + link_latency_;
      at = responder.link_rx.Serve(at, wire, now);
    }
    batch.timing[i].arrival = responder.inbound.Serve(at, inbound_service_, now) + nic_latency_;
  }
  return posted;
}

SimTime NicModel::UnitArrival(const Batch& batch, uint32_t index, const QueuePair& queue_pair,
                              const ProcessingUnit* unit) const {
  SimTime start = std::max(batch.timing[index].arrival, queue_pair.last_write_end);
  if (batch.requests[index].verb != Verb::kRead) {
    start = std::max(start, queue_pair.last_access_end);
  }
  if (unit != nullptr) start = std::max(start, unit->free_at);
  return start;
}

void NicModel::ScheduleResponder(Batch& batch, uint32_t from, bool reads_at_resume, Origin origin) {
  SimClient& client = *batch.client;
  const uint16_t server = batch.requests.front().remote.server;
  Nic& responder = ResponderNic(server);
  QueuePair& queue_pair = QueuePairOf(client, server);
  ProcessingUnit* unit = UnitOf(client, server);
  const SimTime now = Now();
  for (uint32_t i = from; i < batch.requests.size(); ++i) {
    const WorkRequest& request = batch.requests[i];
    SimClient::Timing& timing = batch.timing[i];
    const bool host = request.remote.space == MemorySpace::kHost;
    const SimTime start = UnitArrival(batch, i, queue_pair, unit);
    const ProcessingUnit::Waiting self{&batch, i};
    const bool own_atomic =
        queue_pair.pending_atomic.batch == &batch && queue_pair.pending_atomic.index == i;
    if (queue_pair.pending_atomic.batch != nullptr && !own_atomic) {
      // An earlier atomic of its own QP has not executed: the QP's requests
      // take effect in posting order. (The QP's `waiting` holds requests only
      // while such an atomic is pending, so a posted request that passes here
      // has nothing of its QP waiting there.)
      if (origin == Origin::kFirstInLine) {
        WaitAheadOfQueuePair(queue_pair, unit, self);
      } else {
        queue_pair.waiting.push_back(self);
      }
      return;
    }
    if (unit != nullptr && unit->blocked &&
        (start >= unit->held_from ||
         (origin != Origin::kFirstInLine && queue_pair.unit_queued > 0))) {
      // An atomic holds its processing unit when it gets there, or will
      // have got there first.
      if (origin == Origin::kFirstInLine) {
        unit->waiting.push_front(self);
      } else {
        unit->waiting.push_back(self);
      }
      ++queue_pair.unit_queued;
      return;
    }

    if (IsAtomic(request.verb)) {
      // Its outcome, and so everything after it on this QP, is known only when
      // the atomic unit executes it; until then it holds its processing unit.
      if (unit != nullptr) {
        if (unit->blocked) Displace(*unit);
        unit->blocked = true;
        unit->held_from = start;
        unit->holder = self;
      }
      queue_pair.pending_atomic = self;
      events_.Push(start, EventKind::kAtomicArrival, &client, i, batch.index);
      return;
    }
    MemoryRegion& region = cluster_.memory(server, request.remote.space);
    if (request.verb == Verb::kRead) {
      SimTime window = on_chip_access_;
      SimTime end = start + on_chip_access_;
      if (host) {
        const SimTime transfer = PcieTransfer(request.length);
        window = pcie_read_latency_ + transfer;
        end = responder.pcie_to_nic.Serve(start + pcie_read_latency_, transfer, now);
      }
      region.NoteReadWindow(window);
      region.PrepareRead(request.remote.offset);
      timing.dma_start = end - window;
      timing.dma_end = end;
      if (reads_at_resume) {
        client.reads_at_resume_.push_back({batch.index, i});
      } else {
        events_.Push(end, EventKind::kExecuteRead, &client, i, batch.index);
      }
      queue_pair.last_access_end = std::max(queue_pair.last_access_end, end);
      Respond(batch, end, request.length);
    } else {
      // Its lines land from when its PCIe transfer starts, which may be after
      // it reaches the memory (a busy bus), until the transfer's last write.
      SimTime dma_start = start;
      SimTime end = start + on_chip_access_;
      if (host) {
        const SimTime transfer = PcieTransfer(request.length);
        const SimTime transferred = responder.pcie_to_host.Serve(start, transfer, now);
        dma_start = transferred - transfer;
        end = transferred + pcie_write_latency_;
      }
      timing.dma_start = dma_start;
      timing.dma_end = end;
      events_.Push(dma_start, EventKind::kExecuteWrite, &client, i, batch.index);
      queue_pair.last_write_end = std::max(queue_pair.last_write_end, end);
      queue_pair.last_access_end = std::max(queue_pair.last_access_end, end);
      Respond(batch, end, 0);
    }
  }
  // This batch's completion time is known; the client resumes when every
  // batch it posted together has completed.
  if (wqe_cache_modelled_) {
    NoteCompletion(RequesterNic(client), batch.done, static_cast<uint32_t>(batch.requests.size()));
  }
  if (batch.detached) {
    events_.Push(batch.done, EventKind::kDetachedDone, &client, 0, batch.index);
    return;
  }
  client.all_done_ = std::max(client.all_done_, batch.done);
  if (--client.batches_scheduling_ == 0) {
    events_.Push(client.all_done_, EventKind::kResume, &client);
  }
}

void NicModel::WaitAheadOfQueuePair(QueuePair& queue_pair, ProcessingUnit* unit,
                                    ProcessingUnit::Waiting first) {
  std::vector<ProcessingUnit::Waiting> ahead{first};
  if (unit != nullptr && queue_pair.unit_queued > 0) {
    // What its QP posted later and left at the unit follows it here, so
    // that all of the QP's waiting requests are in one place, in order.
    std::deque<ProcessingUnit::Waiting> others;
    for (const ProcessingUnit::Waiting& waiting : unit->waiting) {
      if (&QueuePairOf(*waiting.batch) == &queue_pair) {
        ahead.push_back(waiting);
      } else {
        others.push_back(waiting);
      }
    }
    unit->waiting.swap(others);
    queue_pair.unit_queued = 0;
  }
  queue_pair.waiting.insert(queue_pair.waiting.begin(), ahead.begin(), ahead.end());
}

void NicModel::Respond(Batch& batch, SimTime ready, uint32_t payload_bytes) {
  SimClient& client = *batch.client;
  const uint16_t server = batch.requests.front().remote.server;
  SimTime at = ready + nic_latency_;
  if (!Loopback(client, server)) {
    const SimTime wire = Wire(payload_bytes);
    const SimTime now = Now();
    at = ResponderNic(server).link_tx.Serve(at, wire, now) + link_latency_;
    at = RequesterNic(client).link_rx.Serve(at, wire, now);
  }
  batch.done = std::max(batch.done, at + nic_latency_);
}

}  // namespace dmbench::rdma::sim
