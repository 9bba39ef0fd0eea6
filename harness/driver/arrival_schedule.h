// When an open-loop client's operations arrive (run.target_mops): a Poisson
// process of rate target_mops / clients per client, so that the cluster is
// offered target_mops in all, independent of how fast the index answers.
// An operation that arrives while the client is still busy waits; its
// latency from the intended start (its arrival) then includes that wait,
// which a closed-loop measurement would omit (YCSB's intended-latency
// convention, against coordinated omission).
//
// Each client has its own schedule from its own random stream, so arrivals
// do not depend on how clients interleave. Thread safety: one client's.
#pragma once

#include <cmath>
#include <cstdint>

#include "harness/util/random.h"

namespace dmbench::driver {

class ArrivalSchedule {
 public:
  // target_mops 0: closed loop (open() is false and Next() must not be called).
  ArrivalSchedule(double target_mops, uint32_t clients, uint64_t seed, uint32_t client,
                  uint64_t start_ns)
      : mean_gap_ns_(target_mops > 0 ? 1e3 * clients / target_mops : 0),
        random_(DeriveSeed(DeriveSeed(seed, kArrivalStream), client)),
        at_ns_(static_cast<double>(start_ns)) {}

  bool open() const { return mean_gap_ns_ > 0; }

  // The intended start of the next operation, in ns on the clients' clock.
  uint64_t Next() {
    at_ns_ += -mean_gap_ns_ * std::log1p(-random_.NextDouble());
    return static_cast<uint64_t>(at_ns_);
  }

 private:
  // Separates the arrival streams from the workloads' (which use the seed per client).
  static constexpr uint64_t kArrivalStream = 0xA331'7A15;

  double mean_gap_ns_;
  Random random_;
  double at_ns_;  // fractional, so that rounding does not drift the rate
};

}  // namespace dmbench::driver
