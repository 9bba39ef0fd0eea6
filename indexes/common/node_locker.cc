#include "indexes/common/node_locker.h"

#include <algorithm>
#include <array>
#include <vector>

namespace dmbench::indexes {

void PostWriteBack(rdma::Client& client, std::span<rdma::WorkRequest> writes,
                   const rdma::WorkRequest* release, const WriteBackPolicy& policy) {
  const bool post_only =
      release != nullptr && !policy.await_release && release->verb == rdma::Verb::kWrite;
  if (policy.combine) {
    // Writes and release in one batch: on the stack, as a write-back is one
    // or two WRITEs and a release, and every write paid an allocation here.
    constexpr size_t kOnStack = 4;
    std::array<rdma::WorkRequest, kOnStack> on_stack;
    std::vector<rdma::WorkRequest> on_heap;
    const size_t count = writes.size() + (release != nullptr ? 1 : 0);
    if (count == 0) return;
    std::span<rdma::WorkRequest> batch(on_stack.data(), count);
    if (count > kOnStack) {
      on_heap.resize(count);
      batch = on_heap;
    }
    std::copy(writes.begin(), writes.end(), batch.begin());
    if (release != nullptr) batch.back() = *release;
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
