// Sherman §3.2.2 / Fig. 2: RDMA spin locks collapse under skew. Clients
// acquire a lock chosen by a Zipfian key (lock_popularity.h) with a CAS (0 -> 1),
// retrying until it succeeds, and release it with a FAA of -1 (FG) or a
// WRITE of 0 (FG+).
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/micro/lock_popularity.h"
#include "harness/micro/micro_runner.h"

namespace dmbench::micro {

enum class LockRelease { kFetchAndAdd, kWrite };

struct SpinlockBenchmarkConfig {
  std::vector<double> thetas = {0, 0.8, 0.9, 0.95, 0.99};
  std::vector<LockRelease> releases = {LockRelease::kFetchAndAdd, LockRelease::kWrite};
  uint32_t locks = 10240;
  // Keys drawn Zipfian and hashed to locks, or 0 for the locks themselves
  // drawn Zipfian (lock_popularity.h).
  uint64_t key_space = kShermanLockBenchKeySpace;
  // 154 clients: 7 x 22, apart from the memory server (seven compute
  // servers of the paper's eight machines, the eighth holding the locks).
  rdma::Topology topology = DefaultTopology();

  static rdma::Topology DefaultTopology();
};

nlohmann::json RunSpinlockBenchmark(const SpinlockBenchmarkConfig& config,
                                    const MicroOptions& options, std::ostream& table);

}  // namespace dmbench::micro
