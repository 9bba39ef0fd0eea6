#include "indexes/tree_factory.h"

#include "indexes/fgplus/remote_spin_locker.h"
#include "indexes/sherman/hierarchical_locker.h"

namespace dmbench::indexes {

std::unique_ptr<BLinkTree> MakeTree(const TreeOptions& options, const rdma::ClusterShape& shape,
                                    uint64_t seed) {
  auto make_locker = [&](const GlobalLockTable& table) -> std::unique_ptr<NodeLocker> {
    if (options.hierarchical) {
      return std::make_unique<sherman::HierarchicalLocker>(table, shape.compute_servers,
                                                           options.combine, options.handover);
    }
    return std::make_unique<fgplus::RemoteSpinLocker>(table, options.combine);
  };
  return std::make_unique<BLinkTree>(options, shape, make_locker, seed);
}

}  // namespace dmbench::indexes
