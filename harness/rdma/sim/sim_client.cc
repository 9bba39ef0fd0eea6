#include "harness/rdma/sim/sim_client.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/sim_cluster.h"
#include "harness/rdma/sim/unloaded_timing.h"

namespace dmbench::rdma::sim {

SimClient::SimClient(SimCluster& cluster, SimThread& thread, ClientLocation location,
                     const ClusterShape& shape)
    : Client(location, shape), cluster_(cluster), thread_(thread) {
  if (thread.techniques) AttachThreadTechniques(&*thread.techniques);
}

void SimClient::Start(const std::function<void(Client&)>& body, size_t stack_bytes) {
  parked_ = wake_pending_ = permit_ = false;
  reads_at_resume_.clear();
  detached_.clear();
  free_detached_.clear();
  coroutine_.Start([this, &body] { body(*this); }, stack_bytes);
}

SimTime SimClient::ThreadTime() const { return std::max(cluster_.now(), thread_.cpu_free_at); }

void SimClient::ExecuteBatches(std::span<const std::span<WorkRequest>> batches) {
  cluster_.Post(*this, batches);
  coroutine_.Suspend();
  ChargeResumption(cluster_.profile().cpu_poll_completion_ns);
}

void SimClient::PostBatchWithoutWaiting(std::span<const WorkRequest> batch) {
  uint16_t slot = 0;
  if (!free_detached_.empty()) {
    slot = free_detached_.back();
    free_detached_.pop_back();
  } else {
    if (detached_.size() >= kDetachedGroup) {
      throw VerbError("client " + std::to_string(location().index) + " has " +
                      std::to_string(detached_.size()) +
                      " batches posted without waiting in flight; no send queue holds that many");
    }
    slot = static_cast<uint16_t>(detached_.size());
    detached_.emplace_back();
  }
  DetachedBatch& detached = detached_[slot];
  detached.requests.assign(batch.begin(), batch.end());
  size_t bytes = 0;
  for (const WorkRequest& request : batch) bytes += request.length;
  detached.payload.resize(bytes);
  size_t offset = 0;
  for (WorkRequest& request : detached.requests) {
    std::memcpy(detached.payload.data() + offset, request.local, request.length);
    request.local = detached.payload.data() + offset;
    offset += request.length;
  }
  detached.batch = InFlightBatch{};
  detached.batch.detached = true;
  cluster_.PostWithoutWaiting(*this, detached.batch, detached.requests,
                              static_cast<uint16_t>(kDetachedGroup + slot));
}

void SimClient::ForgetDetached(uint16_t group) {
  free_detached_.push_back(static_cast<uint16_t>(group - kDetachedGroup));
}

void SimClient::ChargeResumption(double poll_ns) {
  const double switch_ns = cluster_.profile().cpu_coroutine_switch_ns;
  if (poll_ns + switch_ns == 0) return;
  // Summed in nanoseconds first so that a zero switch cost adds nothing, not
  // even a rounding step.
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(poll_ns + switch_ns);
}

void SimClient::ChargeCpu(uint64_t nanoseconds) {
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(static_cast<double>(nanoseconds));
}

void SimClient::ChargeCpu(CpuWork work, uint64_t count) {
  const NicProfile& profile = cluster_.profile();
  double each_ns = 0;
  switch (work) {
    case CpuWork::kIndexCacheLookup:
      each_ns = profile.cpu_index_cache_lookup_ns;
      break;
    case CpuWork::kKeyGeneration:
      each_ns = profile.cpu_key_generation_ns;
      break;
    case CpuWork::kCrcByte:
      each_ns = profile.cpu_crc_ns_per_byte;
      break;
  }
  if (each_ns == 0) return;
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(each_ns * static_cast<double>(count));
}

void SimClient::Yield() {
  // A yield costs what a poll of the completion queue costs: a client that
  // spins on Yield alone still lets simulated time advance.
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(cluster_.profile().cpu_poll_completion_ns);
  cluster_.Wake(*this, thread_.cpu_free_at);
  coroutine_.Suspend();
  ChargeResumption(0);
}

void SimClient::SleepUntil(uint64_t nanoseconds) {
  const SimTime wake = static_cast<SimTime>(nanoseconds) * kPicosecondsPerNanosecond;
  if (wake <= ThreadTime()) return;
  cluster_.Wake(*this, wake);
  coroutine_.Suspend();
  ChargeResumption(0);
}

void SimClient::Park() {
  if (permit_) {
    permit_ = false;
    return;
  }
  parked_ = true;
  coroutine_.Suspend();
  parked_ = false;
  ChargeResumption(0);
}

void SimClient::WakeUp(Client& other, uint32_t spinners) {
  auto& target = static_cast<SimClient&>(other);
  if (target.parked_ && !target.wake_pending_) {
    target.wake_pending_ = true;
    const NicProfile& profile = cluster_.profile();
    const double handoff_ns =
        profile.cpu_wakeup_ns + profile.cpu_lock_spinner_ns * static_cast<double>(spinners);
    cluster_.Wake(target, ThreadTime() + Nanoseconds(handoff_ns));
  } else {
    target.permit_ = true;
  }
}

void SimClient::WriteDeferred(std::shared_ptr<const DeferredContent> content) {
  if (!cluster_.options().deferred_writes) {
    Client::WriteDeferred(std::move(content));
    return;
  }
  // Grouped by memory server, so each region sorts its blocks once.
  std::vector<std::vector<uint64_t>> by_server(cluster_.topology().memory_servers);
  for (uint64_t block = 0; block < content->blocks(); ++block) {
    const GlobalAddress address = content->address(block);
    if (address.space != MemorySpace::kHost || address.server >= by_server.size()) {
      throw VerbError("a deferred block must lie in a memory server's host memory, not at " +
                      address.ToString());
    }
    by_server[address.server].push_back(block);
  }
  for (size_t server = 0; server < by_server.size(); ++server) {
    cluster_.memory(static_cast<uint16_t>(server), MemorySpace::kHost)
        .AddDeferred(content, by_server[server]);
  }
}

uint64_t SimClient::NowNanoseconds() const {
  return static_cast<uint64_t>(ThreadTime() / kPicosecondsPerNanosecond);
}

std::optional<uint64_t> SimClient::UnloadedReadNanoseconds(GlobalAddress source,
                                                           uint32_t length) const {
  if (source.space != MemorySpace::kHost) return std::nullopt;
  const ReadPath path = PathOf(cluster_.topology(), location().compute_server, source.server);
  return static_cast<uint64_t>(UnloadedReadTime(cluster_.profile(), length, path) /
                               kPicosecondsPerNanosecond);
}

}  // namespace dmbench::rdma::sim
