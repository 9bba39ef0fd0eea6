#include "harness/rdma/sim/sim_cluster.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "harness/rdma/errors.h"

namespace dmbench::rdma::sim {

namespace {

SimTime PerMillionOps(double mops) { return Nanoseconds(1000.0 / mops); }

}  // namespace

SimCluster::SimCluster(const Topology& topology, const NicProfile& profile,
                       const SimOptions& options)
    : topology_(topology), profile_(profile), options_(options), random_(options.seed) {
  topology_.Validate();
  shape_.memory_servers = topology_.memory_servers;
  shape_.compute_servers = topology_.compute_servers;
  shape_.clients = topology_.clients();
  shape_.host_memory_bytes = topology_.host_memory_bytes();
  shape_.on_chip_memory_bytes = profile_.on_chip_memory_kib * 1024;
  shape_.masked_compare_and_swap = true;

  outbound_service_ = PerMillionOps(profile_.nic_outbound_mops);
  inbound_service_ = PerMillionOps(profile_.nic_inbound_mops);
  nic_latency_ = Nanoseconds(profile_.nic_latency_ns);
  link_latency_ = Nanoseconds(profile_.link_latency_ns);
  pcie_read_latency_ = Nanoseconds(profile_.pcie_read_latency_ns);
  pcie_write_latency_ = Nanoseconds(profile_.pcie_write_latency_ns);
  on_chip_access_ = Nanoseconds(profile_.on_chip_access_ns);
  atomic_on_chip_ = Nanoseconds(profile_.atomic_on_chip_ns);

  // Machine i carries memory server i and, when co-located, compute server i.
  const uint32_t nic_count = topology_.colocated
                                 ? topology_.memory_servers
                                 : topology_.memory_servers + topology_.compute_servers;
  nics_.resize(nic_count);
  for (uint32_t server = 0; server < topology_.memory_servers; ++server) {
    memory_nic_.push_back(static_cast<uint16_t>(server));
    nics_[server].buckets.resize(profile_.atomic_buckets);
    host_memory_.push_back(
        std::make_unique<MemoryRegion>(shape_.host_memory_bytes, profile_.cacheline_bytes));
    if (shape_.on_chip_memory_bytes > 0) {
      on_chip_memory_.push_back(
          std::make_unique<MemoryRegion>(shape_.on_chip_memory_bytes, profile_.cacheline_bytes));
    }
  }
  for (uint32_t server = 0; server < topology_.compute_servers; ++server) {
    compute_nic_.push_back(
        static_cast<uint16_t>(topology_.colocated ? server : topology_.memory_servers + server));
  }

  for (uint32_t cs = 0; cs < topology_.compute_servers; ++cs) {
    for (uint32_t t = 0; t < topology_.threads_per_compute_server; ++t) {
      const auto index = static_cast<uint32_t>(threads_.size());
      threads_.push_back(std::make_unique<SimThread>(
          index, ChunkAllocator(topology_.memory_servers, shape_.host_memory_bytes,
                                topology_.chunk_bytes(), index)));
      for (uint32_t c = 0; c < topology_.coroutines_per_thread; ++c) {
        ClientLocation location{cs, t, c, static_cast<uint32_t>(clients_.size())};
        clients_.push_back(std::make_unique<SimClient>(*this, *threads_.back(), location, shape_));
      }
    }
  }
  queue_pairs_.resize(threads_.size() * topology_.memory_servers);
}

SimCluster::~SimCluster() = default;

MemoryRegion& SimCluster::memory(uint16_t server, MemorySpace space) {
  if (server >= topology_.memory_servers) {
    throw VerbError("no memory server " + std::to_string(server));
  }
  if (space == MemorySpace::kHost) return *host_memory_[server];
  if (on_chip_memory_.empty()) throw VerbError("this NIC profile has no on-chip memory");
  return *on_chip_memory_[server];
}

uint64_t SimCluster::torn_reads() const {
  uint64_t total = 0;
  for (const auto& region : host_memory_) total += region->torn_reads();
  for (const auto& region : on_chip_memory_) total += region->torn_reads();
  return total;
}

SimTime SimCluster::Wire(uint64_t payload_bytes) const {
  const uint64_t packets = std::max<uint64_t>(
      1, (payload_bytes + profile_.link_mtu_bytes - 1) / profile_.link_mtu_bytes);
  return TransferTime(payload_bytes + packets * profile_.link_packet_overhead_bytes,
                      profile_.link_bandwidth_gbps);
}

void SimCluster::Wake(SimClient& client, SimTime at) {
  events_.Push(at, EventKind::kResume, &client);
}

void SimCluster::Post(SimClient& client, std::span<const std::span<WorkRequest>> batches) {
  SimThread& thread = client.thread_;
  SimTime posted = client.ThreadTime();
  client.in_flight_.resize(batches.size());
  client.batches_scheduling_ = static_cast<uint32_t>(batches.size());
  client.all_done_ = 0;
  for (size_t b = 0; b < batches.size(); ++b) {
    // One doorbell per QP, then each work request.
    posted += Nanoseconds(profile_.cpu_doorbell_ns) +
              static_cast<SimTime>(batches[b].size()) * Nanoseconds(profile_.cpu_post_request_ns);
    Batch& batch = client.in_flight_[b];
    batch.client = &client;
    batch.index = static_cast<uint16_t>(b);
    batch.requests = batches[b];
    batch.done = 0;
    ScheduleRequester(batch, posted);
    verbs_ += batches[b].size();
    ++batches_;
  }
  thread.cpu_free_at = posted;
  for (Batch& batch : client.in_flight_) ScheduleResponder(batch, 0);
}

void SimCluster::ScheduleRequester(Batch& batch, SimTime posted) {
  const uint16_t server = batch.requests.front().remote.server;
  Nic& requester = RequesterNic(*batch.client);
  Nic& responder = ResponderNic(server);
  const bool loopback = Loopback(*batch.client, server);
  batch.timing.resize(batch.requests.size());
  for (size_t i = 0; i < batch.requests.size(); ++i) {
    const WorkRequest& request = batch.requests[i];
    SimTime at = requester.outbound.Serve(posted, outbound_service_, now_) + nic_latency_;
    if (!loopback) {
      const SimTime wire = Wire(request.verb == Verb::kWrite ? request.length : 0);
      at = requester.link_tx.Serve(at, wire, now_) + link_latency_;
      at = responder.link_rx.Serve(at, wire, now_);
    }
    batch.timing[i].arrival = responder.inbound.Serve(at, inbound_service_, now_) + nic_latency_;
  }
}

void SimCluster::ScheduleResponder(Batch& batch, uint32_t from) {
  SimClient& client = *batch.client;
  const uint16_t server = batch.requests.front().remote.server;
  Nic& responder = ResponderNic(server);
  QueuePair& queue_pair = QueuePairOf(client, server);
  for (uint32_t i = from; i < batch.requests.size(); ++i) {
    const WorkRequest& request = batch.requests[i];
    SimClient::Timing& timing = batch.timing[i];
    const bool host = request.remote.space == MemorySpace::kHost;
    SimTime start = std::max(timing.arrival, queue_pair.last_write_end);
    if (request.verb != Verb::kRead) start = std::max(start, queue_pair.last_access_end);

    if (IsAtomic(request.verb)) {
      // Its outcome, and so everything after it on this QP, is known only when
      // the atomic unit executes it.
      events_.Push(start, EventKind::kAtomicArrival, &client, i, batch.index);
      return;
    }
    MemoryRegion& region = memory(server, request.remote.space);
    if (request.verb == Verb::kRead) {
      SimTime window = on_chip_access_;
      SimTime end = start + on_chip_access_;
      if (host) {
        window = pcie_read_latency_ + PcieTransfer(request.length);
        end = responder.pcie_to_nic.Serve(start + pcie_read_latency_, PcieTransfer(request.length),
                                          now_);
      }
      region.NoteReadWindow(window);
      timing.dma_start = end - window;
      timing.dma_end = end;
      events_.Push(end, EventKind::kExecuteRead, &client, i, batch.index);
      queue_pair.last_access_end = std::max(queue_pair.last_access_end, end);
      Respond(batch, end, request.length);
    } else {
      const SimTime end =
          host ? responder.pcie_to_host.Serve(start, PcieTransfer(request.length), now_) +
                     pcie_write_latency_
               : start + on_chip_access_;
      timing.dma_start = start;
      timing.dma_end = end;
      events_.Push(start, EventKind::kExecuteWrite, &client, i, batch.index);
      queue_pair.last_write_end = std::max(queue_pair.last_write_end, end);
      queue_pair.last_access_end = std::max(queue_pair.last_access_end, end);
      Respond(batch, end, 0);
    }
  }
  // This batch's completion time is known; the client resumes when every
  // batch it posted together has completed.
  client.all_done_ = std::max(client.all_done_, batch.done);
  if (--client.batches_scheduling_ == 0) {
    events_.Push(client.all_done_, EventKind::kResume, &client);
  }
}

void SimCluster::Respond(Batch& batch, SimTime ready, uint32_t payload_bytes) {
  SimClient& client = *batch.client;
  const uint16_t server = batch.requests.front().remote.server;
  SimTime at = ready + nic_latency_;
  if (!Loopback(client, server)) {
    const SimTime wire = Wire(payload_bytes);
    at = ResponderNic(server).link_tx.Serve(at, wire, now_) + link_latency_;
    at = RequesterNic(client).link_rx.Serve(at, wire, now_);
  }
  batch.done = std::max(batch.done, at + nic_latency_);
}

void SimCluster::AtomicArrives(Batch& batch, uint32_t index) {
  const GlobalAddress& address = batch.requests[index].remote;
  const uint32_t bucket_index = BucketOf(address);
  AtomicBucket& bucket = ResponderNic(address.server).buckets[bucket_index];
  if (bucket.head == nullptr && bucket.free_at <= now_) {
    ExecuteAtomic(batch, index, bucket);
    return;
  }
  batch.waiting_atomic = index;
  batch.next_in_bucket = nullptr;
  (bucket.tail != nullptr ? bucket.tail->next_in_bucket : bucket.head) = &batch;
  bucket.tail = &batch;
  if (!bucket.release_scheduled) {
    bucket.release_scheduled = true;
    events_.Push(std::max(bucket.free_at, now_), EventKind::kBucketRelease, nullptr, bucket_index,
                 memory_nic_[address.server]);
  }
}

void SimCluster::ReleaseBucket(uint16_t nic, uint32_t bucket_index) {
  AtomicBucket& bucket = nics_[nic].buckets[bucket_index];
  bucket.release_scheduled = false;
  Batch& batch = *bucket.head;
  bucket.head = batch.next_in_bucket;
  if (bucket.head == nullptr) bucket.tail = nullptr;
  ExecuteAtomic(batch, batch.waiting_atomic, bucket);
  if (bucket.head != nullptr) {
    bucket.release_scheduled = true;
    events_.Push(bucket.free_at, EventKind::kBucketRelease, nullptr, bucket_index, nic);
  }
}

void SimCluster::ExecuteAtomic(Batch& batch, uint32_t index, AtomicBucket& bucket) {
  WorkRequest& request = batch.requests[index];
  const uint16_t server = request.remote.server;
  MemoryRegion& region = memory(server, request.remote.space);
  const uint64_t old_value = region.ReadWord(request.remote.offset);
  request.old_value = old_value;
  const bool writes = request.verb == Verb::kFetchAndAdd || request.Succeeded();
  if (writes) region.WriteWord(request.remote.offset, AtomicResult(request, old_value), now_);

  SimTime occupancy = atomic_on_chip_;
  SimTime answered = now_ + atomic_on_chip_;
  if (request.remote.space == MemorySpace::kHost) {
    // Read the word over PCIe; write it back unless the CAS failed.
    occupancy = pcie_read_latency_ + (writes ? pcie_write_latency_ : 0);
    answered = now_ + pcie_read_latency_;
  }
  bucket.free_at = now_ + occupancy;
  QueuePair& queue_pair = QueuePairOf(*batch.client, server);
  queue_pair.last_write_end = std::max(queue_pair.last_write_end, now_ + occupancy);
  queue_pair.last_access_end = std::max(queue_pair.last_access_end, now_ + occupancy);
  Respond(batch, answered, 8);
  ScheduleResponder(batch, index + 1);
}

void SimCluster::Dispatch(const Event& event) {
  SimClient* client = event.client;
  switch (event.kind) {
    case EventKind::kStart:
      client->coroutine_.Resume();
      break;
    case EventKind::kResume:
      client->wake_pending_ = false;
      client->coroutine_.Resume();
      break;
    case EventKind::kExecuteRead: {
      const Batch& batch = client->in_flight_[event.group];
      WorkRequest& request = batch.requests[event.argument];
      const SimClient::Timing& timing = batch.timing[event.argument];
      memory(request.remote.server, request.remote.space)
          .Read(request.remote.offset, request.local, request.length, timing.dma_start,
                timing.dma_end, profile_.dma_read_order, random_);
      break;
    }
    case EventKind::kExecuteWrite: {
      const Batch& batch = client->in_flight_[event.group];
      WorkRequest& request = batch.requests[event.argument];
      const SimClient::Timing& timing = batch.timing[event.argument];
      memory(request.remote.server, request.remote.space)
          .Write(request.remote.offset, request.local, request.length, timing.dma_start,
                 timing.dma_end);
      break;
    }
    case EventKind::kAtomicArrival:
      AtomicArrives(client->in_flight_[event.group], event.argument);
      break;
    case EventKind::kBucketRelease:
      ReleaseBucket(event.group, event.argument);
      break;
  }
}

SimRunStats SimCluster::Run(const ClientBody& body) {
  const auto wall_start = std::chrono::steady_clock::now();
  const SimTime sim_start = now_;
  const uint64_t events_before = events_.pushed();
  const uint64_t verbs_before = verbs_;
  const uint64_t batches_before = batches_;
  const SimTime limit = now_ + static_cast<SimTime>(options_.time_limit_seconds * 1e12);

  for (auto& client : clients_) {
    client->Start(body, options_.stack_bytes);
    events_.Push(now_, EventKind::kStart, client.get());
  }
  try {
    while (!events_.Empty()) {
      const Event event = events_.Pop();
      now_ = event.time;
      if (now_ > limit) {
        throw VerbError("simulation stopped: simulated time passed the limit of " +
                        std::to_string(options_.time_limit_seconds) +
                        " s (does every client finish?)");
      }
      Dispatch(event);
    }
  } catch (...) {
    // Unwind every coroutine, and forget the work they had queued at the
    // NICs, so that the cluster can run again.
    while (!events_.Empty()) events_.Pop();
    for (auto& client : clients_) client->coroutine_.Destroy();
    for (Nic& nic : nics_) {
      for (AtomicBucket& bucket : nic.buckets) bucket = AtomicBucket{.free_at = bucket.free_at};
    }
    throw;
  }

  uint32_t blocked = 0;
  for (auto& client : clients_) {
    if (!client->coroutine_.finished()) ++blocked;
    client->coroutine_.Destroy();
  }
  if (blocked > 0) {
    throw VerbError("simulation deadlocked: " + std::to_string(blocked) +
                    " clients are parked with nothing left that could wake them");
  }

  SimRunStats stats;
  stats.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  stats.simulated_seconds = static_cast<double>(now_ - sim_start) / 1e12;
  stats.events = events_.pushed() - events_before;
  stats.verbs = verbs_ - verbs_before;
  stats.batches = batches_ - batches_before;
  return stats;
}

}  // namespace dmbench::rdma::sim
