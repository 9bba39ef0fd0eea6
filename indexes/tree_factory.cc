#include "indexes/tree_factory.h"

#include "indexes/fgplus/remote_spin_locker.h"
#include "indexes/sherman/hierarchical_locker.h"

namespace dmbench::indexes {

std::unique_ptr<NodeLocker> MakeNodeLocker(const TreeOptions& options, const GlobalLockTable& table,
                                           uint32_t compute_servers, bool await_release) {
  const WriteBackPolicy policy{.combine = options.combine, .await_release = await_release};
  if (options.hierarchical) {
    return std::make_unique<sherman::HierarchicalLocker>(table, compute_servers, policy,
                                                         options.handover);
  }
  return std::make_unique<fgplus::RemoteSpinLocker>(table, policy);
}

std::unique_ptr<BLinkTree> MakeTree(const TreeOptions& options, const rdma::ClusterShape& shape,
                                    uint64_t seed) {
  auto make_locker = [&](const GlobalLockTable& table) {
    return MakeNodeLocker(options, table, shape.compute_servers);
  };
  return std::make_unique<BLinkTree>(options, shape, make_locker, seed);
}

}  // namespace dmbench::indexes
