// Tells AddressSanitizer when a thread switches between its scheduler's
// stack and a client coroutine's. Boost 1.74's fcontext switches stacks without
// telling it, which makes ASan report false errors on coroutine stacks (most
// visibly when an exception unwinds one). Compiles to nothing without ASan.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace dmbench::rdma::fiber_sanitizer {

// Before switching to the stack [bottom, bottom + size); `fake_stack` keeps
// this side's state (nullptr when this side is finishing for good).
inline void StartSwitch([[maybe_unused]] void** fake_stack, [[maybe_unused]] const void* bottom,
                        [[maybe_unused]] size_t size) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#endif
}

// After arriving; reports the stack we came from.
inline void FinishSwitch([[maybe_unused]] void* fake_stack,
                         [[maybe_unused]] const void** previous_bottom,
                         [[maybe_unused]] size_t* previous_size) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(fake_stack, previous_bottom, previous_size);
#endif
}

// A coroutine stack is about to be (re)used or returned: clear stale poison.
inline void ForgetStack([[maybe_unused]] void* bottom, [[maybe_unused]] size_t size) {
#if defined(__SANITIZE_ADDRESS__)
  ASAN_UNPOISON_MEMORY_REGION(bottom, size);
#endif
}

}  // namespace dmbench::rdma::fiber_sanitizer
