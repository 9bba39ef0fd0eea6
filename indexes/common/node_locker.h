// How a writer locks a node, writes it back and unlocks it. FG+ spins on the
// global lock table (remote_spin_locker.h); Sherman adds the local lock table
// and handover in front of it (indexes/sherman/hierarchical_locker.h). Both
// follow a WriteBackPolicy: the write-back and the release in one batch
// (in-order execution on one QP makes that safe, paper §4.5) or one round
// trip each, the release waited for or not.
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

// How a holder writes a node back and gives its lock back.
struct WriteBackPolicy {
  // The write-back and the release in one batch, or one round trip each.
  bool combine = true;
  // Wait for the release to complete, as the trees do (Sherman's
  // write_page_and_unlock on an update), or post it unsignaled and go on, as
  // Sherman's lock benchmark does (lock_bench: unlock_addr with async set).
  // Only a WRITE release can go unwaited; FG's FAA release is always waited.
  bool await_release = true;
};

// Posts `writes` and then `release` (if any) as `policy` says; returns when
// the writes are visible.
void PostWriteBack(rdma::Client& client, std::span<rdma::WorkRequest> writes,
                   const rdma::WorkRequest* release, const WriteBackPolicy& policy);

}  // namespace dmbench::indexes
