#include "indexes/fgplus/remote_spin_locker.h"

namespace dmbench::indexes::fgplus {

LockGrant RemoteSpinLocker::Acquire(rdma::Client& client, rdma::GlobalAddress node,
                                    IndexOpStats& stats) {
  LockGrant grant{table_.For(node)};
  stats.lock_retries += table_.Acquire(client, grant.lock);
  return grant;
}

void RemoteSpinLocker::WriteBackAndRelease(rdma::Client& client, const LockGrant& grant,
                                           std::span<rdma::WorkRequest> writes, IndexOpStats&) {
  const rdma::WorkRequest release = table_.ReleaseRequest(grant.lock, client);
  PostWriteBack(client, writes, &release, policy_);
}

}  // namespace dmbench::indexes::fgplus
