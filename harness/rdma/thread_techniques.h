// What a client thread owns of the substrate's techniques
// (substrate_options.h): shared by the thread's coroutines, used only by
// them, and owned by the backend's per-thread state for the cluster's life.
#pragma once

#include <cstdint>
#include <optional>

#include "harness/rdma/conflict_avoidance.h"
#include "harness/rdma/substrate_options.h"
#include "harness/rdma/work_request_throttle.h"
#include "harness/util/random.h"

namespace dmbench::rdma {

// The seed of the techniques of client thread `thread` (dense over the
// cluster) in a run seeded `run_seed`: a random stream of its own, past any
// client's, so that the backends' other draws stay as they are.
inline uint64_t ThreadTechniquesSeed(uint64_t run_seed, uint32_t thread) {
  return DeriveSeed(run_seed, (uint64_t{1} << 40) + thread);
}

struct ThreadTechniques {
  // `coroutines`: of the thread; `seed`: of its own random stream.
  ThreadTechniques(const SubstrateOptions& options, uint32_t coroutines, uint64_t seed) {
    if (options.work_request_throttling != WorkRequestThrottling::kOff) throttle.emplace(options);
    if (options.cas_backoff) conflicts.emplace(options, coroutines, seed);
  }

  std::optional<WorkRequestThrottle> throttle;
  std::optional<ConflictAvoidance> conflicts;
};

}  // namespace dmbench::rdma
