// Fuzzed versions of the files a user hands dmbench: run configs (and
// "--set" overrides), experiment files and NIC profiles, drawn from the
// shipped ones (configs/) by JsonMutator. Shared by the in-process targets
// and the command-line cases, so both see the same inputs.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/fuzz/json_mutator.h"
#include "harness/util/random.h"

namespace dmbench::fuzz {

class ConfigInputs {
 public:
  // Reads the shipped configs under rdma::sim::ConfigDirectory(): run
  // configs, experiments, NIC profiles, and every experiment point's config
  // (as run configs too: valid values in the combinations experiments use).
  ConfigInputs();

  // A shipped run config, unchanged.
  const nlohmann::json& AnyRunConfig(Random& random) const;

  std::string RunConfigText(Random& random) const;
  std::vector<std::string> Assignments(Random& random, const nlohmann::json& document) const;
  std::string ExperimentText(Random& random) const;
  std::string NicProfileText(Random& random) const;

 private:
  struct Seeds {
    std::vector<nlohmann::json> documents;
    JsonMutator::Donors donors;
  };
  static std::string Mutated(Random& random, const Seeds& seeds);

  Seeds run_configs_;
  Seeds experiments_;
  Seeds nic_profiles_;
};

// JSON text of `document`, even when fuzzing left invalid UTF-8 in a string.
std::string Text(const nlohmann::json& document);

}  // namespace dmbench::fuzz
