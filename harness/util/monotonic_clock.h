// Nanoseconds on the monotonic clock: the clock of the backends that run in
// real time (local threads, real RDMA), where the simulator has its own.
#pragma once

#include <chrono>
#include <cstdint>

namespace dmbench {

inline uint64_t MonotonicNanoseconds() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace dmbench
