// How concentrated a run's key accesses are, for every result to record: a run's key count is
// scaled down from the paper's, and the hottest key's share (which decides lock contention and
// where a point sits relative to a collapse threshold) depends on it, 5.5% at 1e7 keys against
// 4.2% at the paper's 1e9 (theta 0.99). Results and figures carry these numbers so that a reader
// sees the scale a point ran at.
#pragma once

#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "workloads/key_space.h"

namespace dmbench::workloads {

struct WorkloadScale {
  uint64_t keys = 0;
  // Zipfian ranks drawn over (keys unless workload.zipf_population sets more).
  uint64_t zipf_population = 0;
  // Shares of the draws, as the generator draws them (Gray's sampler: ranks 0 and 1 exact, the
  // next few over-weighted, see zipfian_generator.h), before folding, which adds at most 2/keys
  // to any key (key_space.h). ycsb-d's hottest key is the newest one; uniform gives 1/keys.
  double hottest_key_share = 0;
  double top10_keys_share = 0;
  // Draws of a rank >= keys, folded onto the key space (0 without a larger population).
  double folded_share = 0;

  // Result section "workload_scale" (results/SCHEMA.md).
  nlohmann::json ToJson() const;
};

// O(1): closed forms over the key space's generator.
WorkloadScale DescribeScale(const KeySpace& keys);

}  // namespace dmbench::workloads
