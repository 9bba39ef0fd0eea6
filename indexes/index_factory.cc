#include "indexes/index_factory.h"

#include <string>

#include "harness/rdma/errors.h"
#include "indexes/blink/blink_tree.h"
#include "indexes/index_presets.h"
#include "indexes/node_locker_factory.h"

namespace dmbench::indexes {

std::unique_ptr<Index> MakeIndex(std::string_view engine, const TreeOptions& options,
                                 const rdma::ClusterShape& shape, uint64_t seed) {
  if (engine != kBLinkEngine) {
    throw ConfigError("index.engine: unknown engine '" + std::string(engine) +
                      "'; allowed: " + std::string(kBLinkEngine));
  }
  return MakeBLinkTree(options, shape, seed);
}

std::unique_ptr<BLinkTree> MakeBLinkTree(const TreeOptions& options,
                                         const rdma::ClusterShape& shape, uint64_t seed) {
  auto make_locker = [&](const GlobalLockTable& table, const LockOptions& lock_options) {
    return MakeNodeLocker(lock_options, table, shape.compute_servers,
                          !shape.clients_share_one_thread);
  };
  return std::make_unique<BLinkTree>(options, shape, make_locker, seed);
}

}  // namespace dmbench::indexes
