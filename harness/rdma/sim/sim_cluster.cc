#include "harness/rdma/sim/sim_cluster.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "harness/rdma/errors.h"
#include "harness/util/thread_cpu_clock.h"

namespace dmbench::rdma::sim {

SimCluster::SimCluster(const Topology& topology, const NicProfile& profile,
                       const SimOptions& options)
    : topology_(topology),
      profile_(profile),
      options_(options),
      random_(options.seed),
      nic_model_(profile_, topology_, *this, events_, random_,
                 options_.substrate.per_thread_doorbells) {
  topology_.Validate();
  shape_ = ShapeOf(topology_, profile_);

  for (uint32_t server = 0; server < topology_.memory_servers; ++server) {
    host_memory_.push_back(
        std::make_unique<MemoryRegion>(shape_.host_memory_bytes, profile_.cacheline_bytes));
    if (shape_.on_chip_memory_bytes > 0) {
      on_chip_memory_.push_back(
          std::make_unique<MemoryRegion>(shape_.on_chip_memory_bytes, profile_.cacheline_bytes));
    }
  }

  for (uint32_t cs = 0; cs < topology_.compute_servers; ++cs) {
    for (uint32_t t = 0; t < topology_.threads_per_compute_server; ++t) {
      const auto index = static_cast<uint32_t>(threads_.size());
      threads_.push_back(std::make_unique<SimThread>(
          index, ChunkAllocator(topology_.memory_servers, shape_.host_memory_bytes,
                                topology_.chunk_bytes(), index)));
      if (options_.substrate.AnyThreadTechnique()) {
        threads_.back()->techniques.emplace(options_.substrate, topology_.coroutines_per_thread,
                                            ThreadTechniquesSeed(options_.seed, index));
      }
      for (uint32_t c = 0; c < topology_.coroutines_per_thread; ++c) {
        ClientLocation location{cs, t, c, static_cast<uint32_t>(clients_.size())};
        clients_.push_back(std::make_unique<SimClient>(*this, *threads_.back(), location, shape_));
      }
    }
  }
}

SimCluster::~SimCluster() = default;

ClusterShape SimCluster::ShapeOf(const Topology& topology, const NicProfile& profile) {
  ClusterShape shape;
  shape.memory_servers = topology.memory_servers;
  shape.compute_servers = topology.compute_servers;
  shape.clients = topology.clients();
  shape.host_memory_bytes = topology.host_memory_bytes();
  shape.on_chip_memory_bytes = profile.on_chip_memory_kib * 1024;
  shape.masked_compare_and_swap = true;
  shape.clients_share_one_thread = true;
  return shape;
}

void SimCluster::NoSuchMemory(uint16_t server, MemorySpace space) const {
  if (server >= topology_.memory_servers) {
    throw VerbError("no memory server " + std::to_string(server));
  }
  if (space != MemorySpace::kHost && on_chip_memory_.empty()) {
    throw VerbError("this NIC profile has no on-chip memory");
  }
  throw std::logic_error("memory server " + std::to_string(server) + " has no region of " +
                         (space == MemorySpace::kHost ? "host" : "on-chip") + " memory");
}

uint64_t SimCluster::torn_reads() const {
  uint64_t total = 0;
  for (const auto& region : host_memory_) total += region->torn_reads();
  for (const auto& region : on_chip_memory_) total += region->torn_reads();
  return total;
}

void SimCluster::Wake(SimClient& client, SimTime at) {
  events_.Push(at, EventKind::kResume, &client);
}

void SimCluster::Post(SimClient& client, std::span<const std::span<WorkRequest>> batches) {
  for (const std::span<WorkRequest>& batch : batches) verbs_ += batch.size();
  batches_ += batches.size();
  nic_model_.Post(client, batches);
}

void SimCluster::PostWithoutWaiting(SimClient& client, SimClient::InFlightBatch& batch,
                                    std::span<WorkRequest> requests, uint16_t group) {
  verbs_ += requests.size();
  ++batches_;
  nic_model_.PostWithoutWaiting(client, batch, requests, group);
}

void SimCluster::Dispatch(const Event& event) {
  SimClient* client = event.client;
  switch (event.kind) {
    case EventKind::kStart:
      client->coroutine_.Resume();
      break;
    case EventKind::kResume:
      client->wake_pending_ = false;
      // Only the resumption of a completed post finds READs here: a client
      // waiting for its verbs is not parked, so nothing else wakes it.
      for (const SimClient::ReadAtResume read : client->reads_at_resume_) {
        ExecuteRead(*client, read.group, read.request);
      }
      reads_resolved_at_resume_ += client->reads_at_resume_.size();
      client->reads_at_resume_.clear();
      client->coroutine_.Resume();
      break;
    case EventKind::kExecuteRead:
      ExecuteRead(*client, event.group, event.argument);
      break;
    case EventKind::kExecuteWrite: {
      const SimClient::InFlightBatch& batch = client->BatchOf(event.group);
      WorkRequest& request = batch.requests[event.argument];
      const SimClient::Timing& timing = batch.timing[event.argument];
      memory(request.remote.server, request.remote.space)
          .Write(request.remote.offset, request.local, request.length, timing.dma_start,
                 timing.dma_end);
      break;
    }
    case EventKind::kAtomicArrival:
      nic_model_.AtomicArrives(client->BatchOf(event.group), event.argument);
      break;
    case EventKind::kBucketRelease:
      nic_model_.ReleaseBucket(event.group, event.argument);
      break;
    case EventKind::kDetachedDone:
      client->ForgetDetached(event.group);
      break;
  }
}

void SimCluster::ExecuteRead(SimClient& client, uint16_t group, uint32_t index) {
  const SimClient::InFlightBatch& batch = client.BatchOf(group);
  WorkRequest& request = batch.requests[index];
  const SimClient::Timing& timing = batch.timing[index];
  memory(request.remote.server, request.remote.space)
      .Read(request.remote.offset, request.local, request.length, timing.dma_start, timing.dma_end,
            profile_.dma_read_order, random_);
}

void SimCluster::PrefetchClient(const SimClient* client) {
  if (client == nullptr) return;  // a NIC's event
  constexpr size_t kHostLineBytes = 64;
  const auto* bytes = reinterpret_cast<const char*>(client);
  for (size_t line = 0; line < sizeof(SimClient); line += kHostLineBytes) {
    __builtin_prefetch(bytes + line);
    // GCC deletes a loop of nothing but prefetches (it may assume a C++ loop
    // without side effects ends, and prefetches are none); an empty volatile
    // asm is a side effect, so the loop and its prefetches stay.
    asm volatile("");
  }
}

SimRunStats SimCluster::Run(const ClientBody& body) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = ThreadCpuSeconds();
  const SimTime sim_start = now_;
  // A READ resolved at its client's resumption counts as the event it spared.
  const uint64_t events_before = events_.pushed() + reads_resolved_at_resume_;
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
      if (!events_.Empty()) PrefetchClient(events_.Top().client);
      Dispatch(event);
    }
  } catch (...) {
    // Unwind every coroutine, and forget the work they had queued at the
    // NICs, so that the cluster can run again.
    while (!events_.Empty()) events_.Pop();
    for (auto& client : clients_) client->coroutine_.Destroy();
    nic_model_.DropQueuedWork();
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
  stats.cpu_seconds = ThreadCpuSeconds() - cpu_start;
  stats.simulated_seconds = static_cast<double>(now_ - sim_start) / 1e12;
  stats.events = events_.pushed() + reads_resolved_at_resume_ - events_before;
  stats.verbs = verbs_ - verbs_before;
  stats.batches = batches_ - batches_before;
  return stats;
}

}  // namespace dmbench::rdma::sim
