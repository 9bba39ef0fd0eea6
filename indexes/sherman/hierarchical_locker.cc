#include "indexes/sherman/hierarchical_locker.h"

namespace dmbench::indexes::sherman {

HierarchicalLocker::HierarchicalLocker(const GlobalLockTable& table, uint32_t compute_servers,
                                       bool threads_share, const WriteBackPolicy& policy,
                                       uint32_t max_handovers, LocalWaitOrder order)
    : table_(table), policy_(policy), max_handovers_(max_handovers) {
  for (uint32_t i = 0; i < compute_servers; ++i) {
    local_tables_.push_back(std::make_unique<LocalLockTable>(order, i, threads_share));
  }
}

LockGrant HierarchicalLocker::Acquire(rdma::Client& client, rdma::GlobalAddress node,
                                      IndexOpStats& stats) {
  LockGrant grant{table_.For(node)};
  if (TableOf(client).Acquire(client, grant.lock.id)) {
    grant.handed_over = true;
    ++stats.handovers;
    return grant;
  }
  stats.lock_retries += table_.Acquire(client, grant.lock);
  return grant;
}

void HierarchicalLocker::WriteBackAndRelease(rdma::Client& client, const LockGrant& grant,
                                             std::span<rdma::WorkRequest> writes, IndexOpStats&) {
  LocalLockTable& local = TableOf(client);
  // Decided before posting: a handed-over global lock is not released.
  const bool hand_over = max_handovers_ > 0 && local.ShouldHandOver(grant.lock.id, max_handovers_);
  const rdma::WorkRequest release = table_.ReleaseRequest(grant.lock, client);
  PostWriteBack(client, writes, hand_over ? nullptr : &release, policy_);
  // Only now, with the write-back visible, may a local successor read the node.
  local.Release(client, grant.lock.id, hand_over);
}

}  // namespace dmbench::indexes::sherman
