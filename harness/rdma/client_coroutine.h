// The coroutine that runs one client's body, shared by every backend whose
// threads schedule many clients each (the simulator, real RDMA verbs).
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>

namespace dmbench::rdma {

// One client's coroutine. Index code is written sequentially, as one client
// issuing one verb after another; a backend that runs many clients per
// thread makes a verb suspend the client's coroutine, not the thread, so the
// thread's scheduler can run another client while the verb is in flight.
//
// Stacks are guard-paged, so an overflow faults instead of corrupting memory,
// and every switch is announced to AddressSanitizer, so exceptions unwinding
// a coroutine stack give no false reports.
//
// Resume() and Destroy() are called from the scheduler, Suspend() from inside
// the coroutine; a misplaced call throws std::logic_error.
class ClientCoroutine {
 public:
  // Both defined where Fiber is complete: unique_ptr<Fiber> needs it.
  ClientCoroutine();
  ~ClientCoroutine();  // Destroy()
  ClientCoroutine(const ClientCoroutine&) = delete;
  ClientCoroutine& operator=(const ClientCoroutine&) = delete;

  // Prepares a run of `body`, ending any earlier run first; the stack and
  // coroutine are made at the first Resume(), so a coroutine exists only once
  // it has started.
  void Start(std::function<void()> body, size_t stack_bytes);
  // From the scheduler: runs the coroutine until it suspends or ends.
  // Rethrows, on the scheduler's stack, what the body threw.
  void Resume();
  // From inside the coroutine: back to the scheduler. Throws Boost's
  // forced_unwind when Destroy() unwinds it: a catch (...) in the body must
  // rethrow, or the stack cannot be unwound.
  void Suspend();
  // Ends the coroutine, unwinding its stack if it is suspended. Safe to call
  // at any time from the scheduler, more than once.
  void Destroy();

  bool started() const { return started_; }    // Resume() was called since Start()
  bool finished() const { return finished_; }  // the body returned or threw, or Destroy() ran
  bool running() const { return running_; }    // its body is executing, not suspended

 private:
  // The Boost coroutine and its stack, kept out of this header so that
  // backends and index code do not compile Boost.Context.
  struct Fiber;

  std::function<void()> body_;
  size_t stack_bytes_ = 0;
  std::unique_ptr<Fiber> fiber_;
  // Where Suspend() switches to, for the sanitizer; learnt at each switch in.
  const void* scheduler_stack_bottom_ = nullptr;
  size_t scheduler_stack_size_ = 0;
  std::exception_ptr failure_;  // thrown by the body, awaiting Resume()'s rethrow
  bool started_ = false;
  bool finished_ = true;
  bool running_ = false;
};

}  // namespace dmbench::rdma
