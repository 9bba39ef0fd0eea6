#include "harness/driver/run_keys.h"

#include "harness/driver/key_space_bulkload.h"

namespace dmbench::driver {

RunKeys::RunKeys(const RunConfig& config, uint32_t clients) {
  if (!config.workload.trace.empty()) {
    trace_.emplace(config.workload, clients, config.seed);
    bulkload_ = std::make_shared<indexes::SortedEntries>(trace_->BulkloadEntries());
  } else {
    key_space_.emplace(config.workload, config.seed);
    bulkload_ = std::make_shared<KeySpaceBulkload>(key_space_->bulkloaded(), config.seed);
  }
}

}  // namespace dmbench::driver
