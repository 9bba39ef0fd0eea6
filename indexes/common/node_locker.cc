#include "indexes/common/node_locker.h"

#include <vector>

namespace dmbench::indexes {

void PostWriteBack(rdma::Client& client, std::span<rdma::WorkRequest> writes,
                   const rdma::WorkRequest* release, bool combine) {
  if (combine) {
    std::vector<rdma::WorkRequest> batch(writes.begin(), writes.end());
    if (release != nullptr) batch.push_back(*release);
    if (!batch.empty()) client.Execute(batch);
    return;
  }
  for (rdma::WorkRequest& write : writes) client.Execute(std::span(&write, 1));
  if (release != nullptr) {
    rdma::WorkRequest unlock = *release;
    client.Execute(std::span(&unlock, 1));
  }
}

}  // namespace dmbench::indexes
