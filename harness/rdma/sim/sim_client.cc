#include "harness/rdma/sim/sim_client.h"

#include <boost/coroutine2/protected_fixedsize_stack.hpp>

#include <algorithm>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/fiber_sanitizer.h"
#include "harness/rdma/sim/sim_cluster.h"

namespace dmbench::rdma::sim {

namespace {

// Guard-paged stacks (an overflow faults instead of corrupting), recorded
// where the sanitizer needs to know them.
class RecordedStack {
 public:
  RecordedStack(size_t bytes, boost::context::stack_context* record)
      : inner_(bytes), record_(record) {}
  boost::context::stack_context allocate() {
    boost::context::stack_context stack = inner_.allocate();
    fiber_sanitizer::ForgetStack(Bottom(stack), stack.size);
    *record_ = stack;
    return stack;
  }
  void deallocate(boost::context::stack_context& stack) noexcept {
    fiber_sanitizer::ForgetStack(Bottom(stack), stack.size);
    inner_.deallocate(stack);
  }
  static char* Bottom(const boost::context::stack_context& stack) {
    return static_cast<char*>(stack.sp) - stack.size;
  }

 private:
  boost::coroutines2::protected_fixedsize_stack inner_;
  boost::context::stack_context* record_;
};

}  // namespace

SimClient::SimClient(SimCluster& cluster, SimThread& thread, ClientLocation location,
                     const ClusterShape& shape)
    : Client(location, shape), cluster_(cluster), thread_(thread) {}

void SimClient::Start(const std::function<void(Client&)>& body, size_t stack_bytes) {
  finished_ = false;
  parked_ = wake_pending_ = permit_ = false;
  failure_ = nullptr;
  body_ = &body;
  stack_bytes_ = stack_bytes;
}

void SimClient::Launch() {
  const std::function<void(Client&)>& body = *body_;
  coroutine_ = std::make_unique<Coroutine::push_type>(
      RecordedStack(stack_bytes_, &stack_), [this, &body](Coroutine::pull_type& yield) {
        fiber_sanitizer::FinishSwitch(nullptr, &scheduler_stack_bottom_, &scheduler_stack_size_);
        yield_ = &yield;
        try {
          body(*this);
        } catch (const boost::context::detail::forced_unwind&) {
          // Destroy() is unwinding a suspended coroutine: leave for good.
          fiber_sanitizer::StartSwitch(nullptr, scheduler_stack_bottom_, scheduler_stack_size_);
          throw;
        } catch (...) {
          // Carried to the scheduler's stack: no exception crosses a switch.
          failure_ = std::current_exception();
        }
        finished_ = true;
        fiber_sanitizer::StartSwitch(nullptr, scheduler_stack_bottom_, scheduler_stack_size_);
      });
  Resume();
}

void SimClient::Resume() {
  void* fake_stack = nullptr;
  fiber_sanitizer::StartSwitch(&fake_stack, RecordedStack::Bottom(stack_), stack_.size);
  (*coroutine_)();
  fiber_sanitizer::FinishSwitch(fake_stack, nullptr, nullptr);
  if (failure_) {
    std::exception_ptr failure = std::move(failure_);
    failure_ = nullptr;
    std::rethrow_exception(failure);
  }
}

void SimClient::Suspend() {
  void* fake_stack = nullptr;
  fiber_sanitizer::StartSwitch(&fake_stack, scheduler_stack_bottom_, scheduler_stack_size_);
  try {
    (*yield_)();
  } catch (...) {
    fiber_sanitizer::FinishSwitch(fake_stack, &scheduler_stack_bottom_, &scheduler_stack_size_);
    throw;
  }
  fiber_sanitizer::FinishSwitch(fake_stack, &scheduler_stack_bottom_, &scheduler_stack_size_);
}

void SimClient::Destroy() {
  if (coroutine_ != nullptr && !finished_) {
    // Destroying a suspended coroutine switches into it to unwind its stack.
    void* fake_stack = nullptr;
    fiber_sanitizer::StartSwitch(&fake_stack, RecordedStack::Bottom(stack_), stack_.size);
    coroutine_.reset();
    fiber_sanitizer::FinishSwitch(fake_stack, nullptr, nullptr);
  }
  coroutine_.reset();
  finished_ = true;
}

SimTime SimClient::ThreadTime() const { return std::max(cluster_.now(), thread_.cpu_free_at); }

void SimClient::ExecuteBatches(std::span<const std::span<WorkRequest>> batches) {
  cluster_.Post(*this, batches);
  Suspend();
  const NicProfile& profile = cluster_.profile();
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(profile.cpu_poll_completion_ns);
}

void SimClient::ChargeCpu(uint64_t nanoseconds) {
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(static_cast<double>(nanoseconds));
}

void SimClient::Yield() {
  // A yield costs what a poll of the completion queue costs: a client that
  // spins on Yield alone still lets simulated time advance.
  thread_.cpu_free_at = ThreadTime() + Nanoseconds(cluster_.profile().cpu_poll_completion_ns);
  cluster_.Wake(*this, thread_.cpu_free_at);
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
  CheckCanWake(other);
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
