#include "harness/rdma/sim/sim_client.h"

#include <boost/coroutine2/protected_fixedsize_stack.hpp>

#include <algorithm>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/sim_cluster.h"

namespace dmbench::rdma::sim {

SimClient::SimClient(SimCluster& cluster, SimThread& thread, ClientLocation location,
                     const ClusterShape& shape)
    : Client(location, shape), cluster_(cluster), thread_(thread) {}

void SimClient::Start(const std::function<void(Client&)>& body, size_t stack_bytes) {
  finished_ = false;
  parked_ = wake_pending_ = permit_ = false;
  coroutine_ = std::make_unique<Coroutine::push_type>(
      boost::coroutines2::protected_fixedsize_stack(stack_bytes),
      [this, &body](Coroutine::pull_type& yield) {
        yield_ = &yield;
        body(*this);
        finished_ = true;
      });
}

SimTime SimClient::ThreadTime() const { return std::max(cluster_.now(), thread_.cpu_free_at); }

void SimClient::ExecuteBatch(std::span<WorkRequest> batch) {
  cluster_.Post(*this, batch);
  Suspend();
  const NicProfile& profile = cluster_.profile();
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(profile.cpu_poll_completion_ns);
}

void SimClient::ChargeCpu(uint64_t nanoseconds) {
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(static_cast<double>(nanoseconds));
}

void SimClient::Yield() {
  cluster_.Wake(*this, ThreadTime());
  Suspend();
}

void SimClient::Park() {
  if (permit_) {
    permit_ = false;
    return;
  }
  parked_ = true;
  Suspend();
  parked_ = false;
}

void SimClient::Unpark(Client& other) {
  if (other.location().compute_server != location().compute_server) {
    throw VerbError("Unpark: client " + std::to_string(location().index) +
                    " may only wake clients of its own compute server " +
                    std::to_string(location().compute_server) + ", not client " +
                    std::to_string(other.location().index));
  }
  auto& target = static_cast<SimClient&>(other);
  if (target.parked_ && !target.wake_pending_) {
    target.wake_pending_ = true;
    cluster_.Wake(target, ThreadTime() + Nanoseconds(cluster_.profile().cpu_wakeup_ns));
  } else {
    target.permit_ = true;
  }
}

uint64_t SimClient::NowNanoseconds() const {
  return static_cast<uint64_t>(ThreadTime() / kPicosecondsPerNanosecond);
}

}  // namespace dmbench::rdma::sim
