// How a writer locks a node, writes it back and unlocks it. FG+ spins on the
// global lock table (remote_spin_locker.h); Sherman adds the local lock table
// and handover in front of it (indexes/sherman/hierarchical_locker.h). Both
// follow `combine`: the write-back and the release in one batch (in-order
// execution on one QP makes that safe, paper §4.5) or one round trip each.
#pragma once

#include <span>

#include "harness/rdma/client.h"
#include "indexes/common/global_lock_table.h"
#include "indexes/common/index_op_stats.h"

namespace dmbench::indexes {

struct LockGrant {
  GlobalLockTable::Lock lock;
  bool handed_over = false;  // received from a local predecessor, no CAS issued
};

class NodeLocker {
 public:
  virtual ~NodeLocker() = default;
  virtual LockGrant Acquire(rdma::Client& client, rdma::GlobalAddress node,
                            IndexOpStats& stats) = 0;
  // Posts `writes` (all to the node's memory server, in order) and releases
  // the lock; returns when the writes are visible.
  virtual void WriteBackAndRelease(rdma::Client& client, const LockGrant& grant,
                                   std::span<rdma::WorkRequest> writes, IndexOpStats& stats) = 0;
};

// Posts `writes` and then `release` (if any): one batch with `combine`, else
// one round trip per work request, each waiting for the one before.
void PostWriteBack(rdma::Client& client, std::span<rdma::WorkRequest> writes,
                   const rdma::WorkRequest* release, bool combine);

}  // namespace dmbench::indexes
