// The files `dmbench merge` reads, fuzzed: the results of a two-compute-
// server real-cluster run with --verify (each naming its history beside
// it), built in-process from a small resolved config, then damaged.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/fuzz/json_mutator.h"
#include "harness/util/random.h"

namespace dmbench::fuzz {

class MergeInputs {
 public:
  MergeInputs();

  // Writes a damaged set of results and histories into `directory`; returns
  // the result files to merge, in the order to give them, and describes
  // the damage in `input`.
  std::vector<std::string> Write(Random& random, const std::filesystem::path& directory,
                                 std::string& input) const;
  // Writes the undamaged results and histories; returns the result files.
  std::vector<std::string> WriteValid(const std::filesystem::path& directory) const;
  const std::vector<nlohmann::json>& results() const { return results_; }

 private:
  std::vector<nlohmann::json> results_;  // one per compute server
  std::vector<std::string> histories_;   // binary, one per compute server
  JsonMutator::Donors donors_;
};

}  // namespace dmbench::fuzz
