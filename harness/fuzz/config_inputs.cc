#include "harness/fuzz/config_inputs.h"

#include <algorithm>
#include <filesystem>

#include "harness/driver/experiment.h"
#include "harness/fuzz/json_mutator.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::fuzz {

namespace {

std::vector<std::filesystem::path> JsonFiles(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // the same seeds in the same order everywhere
  return files;
}

}  // namespace

std::string Text(const nlohmann::json& document) {
  return document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ConfigInputs::ConfigInputs() {
  const std::filesystem::path configs = rdma::sim::ConfigDirectory();
  for (const auto& file : JsonFiles(configs / "runs")) {
    run_configs_.documents.push_back(ReadJsonFile(file.string()));
  }
  for (const auto& file : JsonFiles(configs / "experiments")) {
    experiments_.documents.push_back(ReadJsonFile(file.string()));
    for (const auto& point : driver::LoadExperiment(file.string(), {}).points) {
      if (point.micro_arguments.empty()) run_configs_.documents.push_back(point.config);
    }
  }
  for (const auto& file : JsonFiles(configs / "nic")) {
    nic_profiles_.documents.push_back(ReadJsonFile(file.string()));
  }
  for (Seeds* seeds : {&run_configs_, &experiments_, &nic_profiles_}) {
    seeds->donors = JsonMutator::CollectDonors(seeds->documents);
  }
}

const nlohmann::json& ConfigInputs::AnyRunConfig(Random& random) const {
  return run_configs_.documents[random.Uniform(run_configs_.documents.size())];
}

std::string ConfigInputs::Mutated(Random& random, const Seeds& seeds) {
  JsonMutator mutator(random, seeds.donors);
  const nlohmann::json& seed = seeds.documents[random.Uniform(seeds.documents.size())];
  if (mutator.OneIn(4)) return mutator.DamageText(Text(seed));
  return Text(mutator.Mutate(seed, 1 + static_cast<uint32_t>(random.Uniform(6))));
}

std::string ConfigInputs::RunConfigText(Random& random) const {
  return Mutated(random, run_configs_);
}

std::vector<std::string> ConfigInputs::Assignments(Random& random,
                                                   const nlohmann::json& document) const {
  JsonMutator mutator(random, run_configs_.donors);
  std::vector<std::string> assignments(1 + random.Uniform(4));
  for (std::string& assignment : assignments) assignment = mutator.RandomAssignment(document);
  return assignments;
}

std::string ConfigInputs::ExperimentText(Random& random) const {
  return Mutated(random, experiments_);
}

std::string ConfigInputs::NicProfileText(Random& random) const {
  return Mutated(random, nic_profiles_);
}

}  // namespace dmbench::fuzz
