#include "indexes/common/node_locker.h"

#include <vector>

namespace dmbench::indexes {

void PostWriteBack(rdma::Client& client, std::span<rdma::WorkRequest> writes,
                   const rdma::WorkRequest* release, const WriteBackPolicy& policy) {
  const bool post_only =
      release != nullptr && !policy.await_release && release->verb == rdma::Verb::kWrite;
  if (policy.combine) {
    std::vector<rdma::WorkRequest> batch(writes.begin(), writes.end());
    if (release != nullptr) batch.push_back(*release);
    if (batch.empty()) return;
    if (post_only) {
      client.PostWithoutWaiting(batch);
    } else {
      client.Execute(batch);
    }
    return;
  }
  for (rdma::WorkRequest& write : writes) client.Execute(std::span(&write, 1));
  if (release == nullptr) return;
  rdma::WorkRequest unlock = *release;
  if (post_only) {
    client.PostWithoutWaiting(std::span(&unlock, 1));
  } else {
    client.Execute(std::span(&unlock, 1));
  }
}

}  // namespace dmbench::indexes
