// Simulated time: integer picoseconds, so that event order and results are
// exact and identical on every machine (no floating-point accumulation).
#pragma once

#include <cstdint>

namespace dmbench::rdma::sim {

using SimTime = int64_t;

constexpr SimTime kPicosecondsPerNanosecond = 1000;

constexpr SimTime Nanoseconds(double ns) {
  return static_cast<SimTime>(ns * kPicosecondsPerNanosecond + 0.5);
}
constexpr double ToNanoseconds(SimTime time) {
  return static_cast<double>(time) / kPicosecondsPerNanosecond;
}
// Time to move `bytes` over a channel of `gbps` gigabits per second.
constexpr SimTime TransferTime(uint64_t bytes, double gbps) {
  return static_cast<SimTime>(static_cast<double>(bytes) * 8000.0 / gbps + 0.5);
}

}  // namespace dmbench::rdma::sim
