#include "indexes/node_locker_factory.h"

#include "indexes/fgplus/remote_spin_locker.h"
#include "indexes/sherman/hierarchical_locker.h"

namespace dmbench::indexes {

std::unique_ptr<NodeLocker> MakeNodeLocker(const LockOptions& options, const GlobalLockTable& table,
                                           uint32_t compute_servers, bool threads_share,
                                           bool await_release) {
  const WriteBackPolicy policy{.combine = options.combine, .await_release = await_release};
  if (options.hierarchical) {
    return std::make_unique<sherman::HierarchicalLocker>(
        table, compute_servers, threads_share, policy, options.handover,
        options.wait_queues ? sherman::LocalWaitOrder::kFifo : sherman::LocalWaitOrder::kUnordered);
  }
  return std::make_unique<fgplus::RemoteSpinLocker>(table, policy);
}

}  // namespace dmbench::indexes
