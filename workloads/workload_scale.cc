#include "workloads/workload_scale.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace dmbench::workloads {

WorkloadScale DescribeScale(const KeySpace& keys) {
  WorkloadScale scale;
  scale.keys = keys.size();
  scale.zipf_population = keys.size();
  const auto n = static_cast<double>(keys.size());
  const std::shared_ptr<const ZipfianGenerator> zipfian = keys.zipfian();
  if (zipfian == nullptr) {
    scale.hottest_key_share = 1.0 / n;
    scale.top10_keys_share = std::min(10.0, n) / n;
    return scale;
  }
  scale.zipf_population = zipfian->items();
  scale.hottest_key_share = zipfian->SamplingProbability(0);
  // 1 - P(rank >= 10) rather than a sum of ten terms: the same number without the rounding.
  scale.top10_keys_share = 1.0 - zipfian->SamplingTail(std::min<uint64_t>(10, keys.size()));
  scale.folded_share = zipfian->SamplingTail(keys.size());
  return scale;
}

nlohmann::json WorkloadScale::ToJson() const {
  return {{"keys", keys},
          {"zipf_population", zipf_population},
          {"hottest_key_share", hottest_key_share},
          {"top10_keys_share", top10_keys_share},
          {"folded_share", folded_share}};
}

}  // namespace dmbench::workloads
