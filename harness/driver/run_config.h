// One benchmark run, as a config file describes it: the index and its
// toggles, the cluster, the backend, the workload and the measurement.
//
// Configs are JSON. Every section and field is optional (defaults are the
// paper's setup scaled to a laptop); unknown keys and bad values are errors
// that name the field and what is allowed. ToJson() gives the fully resolved
// config, which every result file carries so that any point can be re-run
// from its own result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/rdma/substrate_options.h"
#include "harness/rdma/topology.h"
#include "harness/rdma/verbs/verbs_options.h"
#include "harness/util/config_forward.h"
#include "indexes/blink/tree_options.h"
#include "workloads/workload_spec.h"

namespace dmbench::driver {

struct BackendConfig {
  std::string type = "sim";      // "sim" (simulated fabric) or "verbs" (real RDMA)
  std::string nic = "cx5-100g";  // sim: a profile under configs/nic/, or a file
  std::string dma_read_order;    // sim: overrides the profile when set
  // sim: {"parameter": value} over the profile's values, each checked as in
  // a profile file (e.g. {"processing_units": 0} switches a mechanism off).
  nlohmann::json nic_overrides = nlohmann::json::object();
  // sim: build bulkloaded nodes on first touch (rdma/deferred_content.h), so
  // that a run's memory is what it touches; false writes them all up front.
  bool deferred_bulkload = true;
  rdma::verbs::VerbsOptions verbs;  // verbs: where the memory servers are

  // The fields of a sim backend section (beside its "type").
  static const ConfigFields<BackendConfig>& SimFields();
};

struct RunConfig {
  std::string name = "run";
  // The index: an engine (indexes/index_presets.h), a preset of it that the
  // index section's other fields edit, and the engine's resolved options.
  std::string index_engine = "blink";
  std::string index_preset = "sherman";
  indexes::TreeOptions index = indexes::TreeOptions::Sherman();
  double fill_factor = 0.8;  // bulkload leaf fill
  rdma::Topology topology;
  BackendConfig backend;
  rdma::SubstrateOptions substrate;  // the substrate's scale-up techniques
  workloads::WorkloadSpec workload;
  double warmup_ms = 1;    // simulated on the sim
  double measure_ms = 10;  // simulated on the sim
  uint64_t seed = 1;
  bool verify = false;  // run the consistency checker over every operation
  // Offered load over the whole cluster, millions of operations per second; 0 runs closed-loop
  // (each client issues its next operation when the last returns). Open loop: each client's
  // operations arrive as a Poisson process of rate target_mops / clients, and latency is also
  // measured from each operation's intended start (see benchmark_runner.cc).
  double target_mops = 0;

  static RunConfig FromJson(const nlohmann::json& document);
  nlohmann::json ToJson() const;

  // The index section's own fields (engine, preset, fill_factor), read
  // before the engine's options (indexes::TreeOptions::Fields()).
  static const ConfigFields<RunConfig>& IndexFields();
  // The run section: the measurement window, the seed, verification.
  static const ConfigFields<RunConfig>& RunFields();
};

// Sets the field at a dotted path ("index.combine", "workload.theta") of a
// config document, creating sections as needed.
nlohmann::json SetPath(nlohmann::json document, const std::string& path, nlohmann::json value);

// Applies a "--set path=value" override: `value` is parsed as JSON when it
// is valid JSON, else taken as a string ("fgplus").
nlohmann::json ApplySet(nlohmann::json document, const std::string& assignment);

// Reads a config file, applies the overrides in order, resolves it, and
// refuses it if it can never make progress (run_feasibility.h).
RunConfig LoadRunConfig(const std::string& file, const std::vector<std::string>& sets);
// The same for a document already read from `file`.
RunConfig LoadRunConfig(nlohmann::json document, const std::string& file,
                        const std::vector<std::string>& sets);

}  // namespace dmbench::driver
