// The one place that maps LockOptions to a NodeLocker: Sherman's
// hierarchical lock when `hierarchical` is on, else FG+'s remote spin lock.
// The indexes and the lock microbenchmark (Fig. 16) both build theirs here.
#pragma once

#include <cstdint>
#include <memory>

#include "indexes/common/global_lock_table.h"
#include "indexes/common/lock_options.h"
#include "indexes/common/node_locker.h"

namespace dmbench::indexes {

// A locker over `table` (which must outlive it) for a cluster of
// `compute_servers`; `threads_share` is false if every client runs on one
// thread (see util/optional_mutex.h). The indexes await their releases; the
// lock benchmark posts them without waiting (WriteBackPolicy::await_release).
std::unique_ptr<NodeLocker> MakeNodeLocker(const LockOptions& options, const GlobalLockTable& table,
                                           uint32_t compute_servers, bool threads_share,
                                           bool await_release = true);

}  // namespace dmbench::indexes
