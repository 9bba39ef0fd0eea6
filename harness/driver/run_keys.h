// A run's keys: a trace to replay or a generated key space, never both, and
// the bulkload the index builds from them, which is also what the
// consistency checker takes as the contents before the first operation. The
// run and `dmbench merge`'s check of its histories both derive it here, so
// that they cannot disagree on it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "harness/driver/run_config.h"
#include "indexes/common/bulkload_source.h"
#include "workloads/key_space.h"
#include "workloads/trace_workload.h"

namespace dmbench::driver {

class RunKeys {
 public:
  // Reads the traces `config` names for `clients` clients (dense over the
  // cluster), or generates its key space. Throws ConfigError for a trace
  // that cannot be read.
  RunKeys(const RunConfig& config, uint32_t clients);

  // Exactly one of the two is not null; both live as long as this object.
  workloads::TraceWorkload* trace() { return trace_ ? &*trace_ : nullptr; }
  workloads::KeySpace* key_space() { return key_space_ ? &*key_space_ : nullptr; }

  // Read by the index while it builds nodes, not held as one array; shared,
  // so it may outlive this object.
  const std::shared_ptr<const indexes::BulkloadSource>& bulkload() const { return bulkload_; }

 private:
  std::optional<workloads::TraceWorkload> trace_;
  std::optional<workloads::KeySpace> key_space_;
  std::shared_ptr<const indexes::BulkloadSource> bulkload_;
};

}  // namespace dmbench::driver
