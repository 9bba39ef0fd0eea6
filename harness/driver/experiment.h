// An experiment: one figure or table of the paper as a set of run configs.
//
// An experiment file holds a base config, and named variants (each a set of
// field overrides: "FG+", "+Combine", ...) and/or a sweep (fields and the
// values each takes, crossed; fields joined by commas take their values
// together); or, for the substrate figures, a "micro"
// section: {"arguments": ["spinlock", "--thetas", "0,0.99"]}. Its points are the variants crossed
// with the sweep; each point is one run and one result file, named after its variant and sweep
// values so that plots can find them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dmbench::driver {

struct ExperimentPoint {
  std::string name;         // file-name safe: "FG+__workload.theta=0.99"
  std::string variant;      // the variant's name, or "" without variants
  nlohmann::json settings;  // {"workload.theta": 0.99, ...}: the sweep values
  nlohmann::json config;    // the base with everything applied (index runs)
  // Microbenchmark experiments (Figs. 2, 3, 16) have one point, run as
  // `dmbench micro <arguments...>`.
  std::vector<std::string> micro_arguments;
};

struct Experiment {
  std::string name;
  std::string figure;
  std::string description;
  nlohmann::json definition;  // the file as read
  std::vector<ExperimentPoint> points;
};

// Which setup an index experiment's points take. kAsDefined: the experiment's
// base, variants and sweep (scaled to a laptop). kPaper: its "paper_scale"
// section's "set" (field overrides, e.g. the paper's 1 billion keys and
// 500 MB index cache) applied to the base before the --set's, and its
// "sweep", when given, in place of the sweep (an axis whose values depend on
// the scale, such as the cache size). Microbenchmark experiments have no key
// space and are the same at both.
enum class ExperimentScale { kAsDefined, kPaper };

// Reads and expands an experiment file; each point's config is validated, so
// that a bad field fails before anything runs. The --set's (`sets`) apply to
// the base: a variant or sweep value of the same field takes precedence.
Experiment LoadExperiment(const std::string& file, const std::vector<std::string>& sets,
                          ExperimentScale scale = ExperimentScale::kAsDefined);

}  // namespace dmbench::driver
