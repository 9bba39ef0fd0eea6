// Sherman's hierarchical on-chip lock (HOCL, paper §4.3 and Fig. 6): a local
// lock table per compute server in front of the global lock table, with
// handover of the global lock between clients of one compute server.
#pragma once

#include <memory>
#include <vector>

#include "indexes/common/node_locker.h"
#include "indexes/sherman/local_lock_table.h"

namespace dmbench::indexes::sherman {

class HierarchicalLocker : public NodeLocker {
 public:
  // `threads_share`: false if every client runs on one thread (see
  // util/optional_mutex.h).
  HierarchicalLocker(const GlobalLockTable& table, uint32_t compute_servers, bool threads_share,
                     const WriteBackPolicy& policy, uint32_t max_handovers,
                     LocalWaitOrder order = LocalWaitOrder::kFifo);

  LockGrant Acquire(rdma::Client& client, rdma::GlobalAddress node, IndexOpStats& stats) override;
  void WriteBackAndRelease(rdma::Client& client, const LockGrant& grant,
                           std::span<rdma::WorkRequest> writes, IndexOpStats& stats) override;

 private:
  LocalLockTable& TableOf(const rdma::Client& client) {
    return *local_tables_[client.location().compute_server];
  }

  const GlobalLockTable& table_;
  WriteBackPolicy policy_;
  uint32_t max_handovers_;
  std::vector<std::unique_ptr<LocalLockTable>> local_tables_;
};

}  // namespace dmbench::indexes::sherman
