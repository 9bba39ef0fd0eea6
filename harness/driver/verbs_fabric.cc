// A real cluster as the driver sees it: this process is one compute server.
#include <chrono>

#include "harness/driver/backend_fabrics.h"
#include "harness/rdma/verbs/verbs_cluster.h"

namespace dmbench::driver {

namespace {

class VerbsFabric final : public Fabric {
 public:
  explicit VerbsFabric(const RunConfig& config)
      : topology_(config.topology),
        cluster_(config.topology, config.backend.verbs, config.substrate, config.seed) {}

  rdma::Cluster& cluster() override { return cluster_; }
  void Run(const rdma::Cluster::ClientBody& body, bool measured) override {
    const auto start = std::chrono::steady_clock::now();
    cluster_.RunClients(body);
    if (measured) {
      measured_wall_seconds_ =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  }
  Moment Synchronize(uint32_t phase, const std::string& name) override {
    const rdma::verbs::VerbsCluster::BarrierPassage passage = cluster_.Barrier(phase, name);
    return {passage.released_ns, passage.uncertainty_ns};
  }
  uint32_t first_local_client() const override {
    return cluster_.compute_server() * local_clients();
  }
  uint32_t local_clients() const override {
    return topology_.threads_per_compute_server * topology_.coroutines_per_thread;
  }
  const char* clock_name() const override { return "wall-clock"; }

  nlohmann::json BackendJson() const override { return cluster_.Describe(); }
  void AddResultSections(nlohmann::json& result, uint64_t executed) const override {
    result["wall_clock"]["run_wall_seconds"] = measured_wall_seconds_;
    result["cluster"] = {{"compute_server", cluster_.compute_server()},
                         {"compute_servers", topology_.compute_servers},
                         {"index_operations", executed}};
  }

 private:
  rdma::Topology topology_;
  rdma::verbs::VerbsCluster cluster_;
  double measured_wall_seconds_ = 0;
};

}  // namespace

std::unique_ptr<Fabric> MakeVerbsFabric(const RunConfig& config) {
  return std::make_unique<VerbsFabric>(config);
}

}  // namespace dmbench::driver
