// What a node lock protocol is made of, for any index that locks nodes
// through the global lock table (global_lock_table.h) and a NodeLocker
// (node_locker_factory.h): where locks live, how they are taken and
// released, and whether a compute server queues its own waiters. An index's
// own options say which of these it uses (e.g. TreeOptions::locks()).
#pragma once

#include <cstdint>

#include "harness/rdma/client_location.h"

namespace dmbench::indexes {

// Where a node's lock word lives. FG and FG+ embed it in the node header;
// Sherman separates locks from nodes so that they fit NIC on-chip memory
// (paper §3.3, §4.3). The placement decides which NIC atomic buckets the
// locks share: in-node locks follow node alignment as on hardware.
enum class LockPlacement : uint8_t {
  kNode,   // the first 8 bytes of every node (host memory)
  kTable,  // a global lock table per memory server, by a hash of the node address
};

inline const char* LockPlacementName(LockPlacement placement) {
  return placement == LockPlacement::kNode ? "node" : "table";
}

struct LockOptions {
  LockPlacement placement = LockPlacement::kTable;
  bool on_chip = true;       // the global lock table in NIC on-chip memory
  bool masked = false;       // 16-bit locks by masked CAS (sim only); else 64-bit
  bool faa_release = false;  // release by FAA, as FG did; FG+ and Sherman use a WRITE
  bool hierarchical = true;  // local lock table with FIFO wait queues per compute server
  // The local lock table's waiters queue first come first served; false: a
  // freed local lock goes to any waiter (Sherman §5.7 measures both).
  bool wait_queues = true;
  uint32_t handover = 8;  // max consecutive local handovers; 0 = off
  bool combine = true;    // write-back + release in one batch
  // How long a CAS may keep failing on one lock before the operation gives
  // up with an error (GlobalLockTable::Acquire), in the backend's clock. A
  // lock waited for this long is not contended but lost: its holder died, its
  // release never arrived or was overwritten (see ForFabric), or a fabric
  // executed a CAS twice. Without a limit such a run spins for ever; no run
  // of the paper's holds a lock for even a millisecond.
  uint64_t wait_limit_ns = 10'000'000'000;
};

// `options` as the fabric of `shape` can run them safely. Where a failing CAS
// may store its word back (ClusterShape::failed_cas_may_overwrite_writes), a
// WRITE release can land between a waiter's CAS reading the taken lock and
// storing it back: the release is lost and the lock stays taken for ever
// (what Soft-RoCE did to Sherman). An FAA release is an atomic, which the
// fabric serializes with the CASes. The verbs backend puts the change on
// record (VerbsCluster::fallbacks).
inline LockOptions ForFabric(LockOptions options, const rdma::ClusterShape& shape) {
  if (shape.failed_cas_may_overwrite_writes) options.faa_release = true;
  return options;
}

}  // namespace dmbench::indexes
