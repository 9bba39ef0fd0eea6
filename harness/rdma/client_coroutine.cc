#include "harness/rdma/client_coroutine.h"

#include <boost/context/stack_context.hpp>
#include <boost/coroutine2/coroutine.hpp>
#include <boost/coroutine2/protected_fixedsize_stack.hpp>

#include <stdexcept>
#include <utility>

#include "harness/rdma/fiber_sanitizer.h"

namespace dmbench::rdma {

namespace {

using Coroutine = boost::coroutines2::coroutine<void>;

// Boost records a stack by its top (stacks grow down); the sanitizer wants
// its lowest address.
char* StackBottom(const boost::context::stack_context& stack) {
  return static_cast<char*>(stack.sp) - stack.size;
}

// Guard-paged stacks (an overflow faults instead of corrupting), recorded
// where the sanitizer needs to know them.
class RecordedStack {
 public:
  RecordedStack(size_t bytes, boost::context::stack_context* record)
      : inner_(bytes), record_(record) {}
  boost::context::stack_context allocate() {
    boost::context::stack_context stack = inner_.allocate();
    fiber_sanitizer::ForgetStack(StackBottom(stack), stack.size);
    *record_ = stack;
    return stack;
  }
  void deallocate(boost::context::stack_context& stack) noexcept {
    fiber_sanitizer::ForgetStack(StackBottom(stack), stack.size);
    inner_.deallocate(stack);
  }

 private:
  boost::coroutines2::protected_fixedsize_stack inner_;
  boost::context::stack_context* record_;
};

}  // namespace

struct ClientCoroutine::Fiber {
  template <typename Body>
  Fiber(size_t stack_bytes, Body body)
      : coroutine(RecordedStack(stack_bytes, &stack), std::move(body)) {}

  // Declared before `coroutine`, whose construction allocates and records it.
  boost::context::stack_context stack;
  Coroutine::pull_type* yield = nullptr;  // Suspend() switches through it
  Coroutine::push_type coroutine;
};

ClientCoroutine::ClientCoroutine() = default;

ClientCoroutine::~ClientCoroutine() { Destroy(); }

void ClientCoroutine::Start(std::function<void()> body, size_t stack_bytes) {
  if (!body) throw std::invalid_argument("ClientCoroutine::Start: the body is empty");
  Destroy();
  body_ = std::move(body);
  stack_bytes_ = stack_bytes;
  started_ = false;
  finished_ = false;
}

void ClientCoroutine::Resume() {
  if (running_) {
    throw std::logic_error("ClientCoroutine::Resume: called from inside the coroutine itself");
  }
  if (finished_) {
    throw std::logic_error("ClientCoroutine::Resume: nothing to run (not started, or finished)");
  }
  started_ = true;
  if (fiber_ == nullptr) {
    fiber_ = std::make_unique<Fiber>(stack_bytes_, [this](Coroutine::pull_type& yield) {
      fiber_sanitizer::FinishSwitch(nullptr, &scheduler_stack_bottom_, &scheduler_stack_size_);
      fiber_->yield = &yield;
      try {
        body_();
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
  }
  void* fake_stack = nullptr;
  fiber_sanitizer::StartSwitch(&fake_stack, StackBottom(fiber_->stack), fiber_->stack.size);
  running_ = true;
  fiber_->coroutine();
  running_ = false;
  fiber_sanitizer::FinishSwitch(fake_stack, nullptr, nullptr);
  if (failure_) {
    std::exception_ptr failure = std::move(failure_);
    failure_ = nullptr;
    std::rethrow_exception(failure);
  }
}

void ClientCoroutine::Suspend() {
  if (!running_) {
    throw std::logic_error("ClientCoroutine::Suspend: called from outside the coroutine");
  }
  void* fake_stack = nullptr;
  fiber_sanitizer::StartSwitch(&fake_stack, scheduler_stack_bottom_, scheduler_stack_size_);
  try {
    (*fiber_->yield)();
  } catch (...) {
    fiber_sanitizer::FinishSwitch(fake_stack, &scheduler_stack_bottom_, &scheduler_stack_size_);
    throw;
  }
  fiber_sanitizer::FinishSwitch(fake_stack, &scheduler_stack_bottom_, &scheduler_stack_size_);
}

void ClientCoroutine::Destroy() {
  if (running_) {
    // Its stack would be freed under the code that is running on it.
    throw std::logic_error("ClientCoroutine::Destroy: called from inside the coroutine itself");
  }
  if (fiber_ != nullptr && !finished_) {
    // Destroying a suspended coroutine switches into it to unwind its stack.
    void* fake_stack = nullptr;
    fiber_sanitizer::StartSwitch(&fake_stack, StackBottom(fiber_->stack), fiber_->stack.size);
    fiber_.reset();
    fiber_sanitizer::FinishSwitch(fake_stack, nullptr, nullptr);
  }
  fiber_.reset();
  body_ = nullptr;
  failure_ = nullptr;
  finished_ = true;
}

}  // namespace dmbench::rdma
