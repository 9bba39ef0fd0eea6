// Locks a node by spinning with CAS on its global lock (FG+, and Sherman
// with the hierarchical toggle off).
#pragma once

#include "indexes/common/node_locker.h"

namespace dmbench::indexes::fgplus {

class RemoteSpinLocker : public NodeLocker {
 public:
  RemoteSpinLocker(const GlobalLockTable& table, const WriteBackPolicy& policy)
      : table_(table), policy_(policy) {}

  LockGrant Acquire(rdma::Client& client, rdma::GlobalAddress node, IndexOpStats& stats) override;
  void WriteBackAndRelease(rdma::Client& client, const LockGrant& grant,
                           std::span<rdma::WorkRequest> writes, IndexOpStats& stats) override;

 private:
  const GlobalLockTable& table_;
  WriteBackPolicy policy_;
};

}  // namespace dmbench::indexes::fgplus
