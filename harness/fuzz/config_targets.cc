#include "harness/fuzz/config_targets.h"

#include <set>

#include "harness/driver/experiment.h"
#include "harness/driver/run_config.h"
#include "harness/driver/run_feasibility.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/rdma/sim/unloaded_timing.h"
#include "harness/util/file_output.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::fuzz {

namespace {

// A config is accepted for what its result will echo: the resolved config
// must read back as the same config and still be runnable, or a result
// could not be re-run from its own echo.
void CheckEcho(const driver::RunConfig& config) {
  const nlohmann::json echo = config.ToJson();
  driver::RunConfig again;
  try {
    again = driver::RunConfig::FromJson(echo);
    driver::CheckRunCanProgress(again);
  } catch (const ConfigError& error) {
    throw PropertyFailure{std::string("its resolved config is refused: ") + error.what()};
  }
  if (again.ToJson() != echo) {
    throw PropertyFailure{"its resolved config reads back as another config: " + Text(echo) +
                          " became " + Text(again.ToJson())};
  }
}

class RunConfigTarget final : public FuzzTarget {
 public:
  RunConfigTarget(const ConfigInputs& inputs, const std::filesystem::path& scratch)
      : inputs_(inputs), file_(scratch / "run-config.json") {}
  std::string_view kind() const override { return "run-config"; }
  CaseResult RunCase(Random& random, std::string& input) override {
    input = inputs_.RunConfigText(random);
    WriteFileWhole(file_, input);
    return Attempt([&] { CheckEcho(driver::LoadRunConfig(file_.string(), {})); });
  }

 private:
  const ConfigInputs& inputs_;
  std::filesystem::path file_;
};

class SetOverrideTarget final : public FuzzTarget {
 public:
  explicit SetOverrideTarget(const ConfigInputs& inputs) : inputs_(inputs) {}
  std::string_view kind() const override { return "set-override"; }
  CaseResult RunCase(Random& random, std::string& input) override {
    const nlohmann::json& document = inputs_.AnyRunConfig(random);
    const std::vector<std::string> sets = inputs_.Assignments(random, document);
    input = Text(document);
    for (const std::string& set : sets) input += "\n--set " + set;
    return Attempt([&] { CheckEcho(driver::LoadRunConfig(document, "config.json", sets)); });
  }

 private:
  const ConfigInputs& inputs_;
};

class ExperimentTarget final : public FuzzTarget {
 public:
  ExperimentTarget(const ConfigInputs& inputs, const std::filesystem::path& scratch)
      : inputs_(inputs), file_(scratch / "experiment.json") {}
  std::string_view kind() const override { return "experiment"; }
  CaseResult RunCase(Random& random, std::string& input) override {
    input = inputs_.ExperimentText(random);
    WriteFileWhole(file_, input);
    std::vector<std::string> sets;
    if (random.Uniform(4) == 0) sets = inputs_.Assignments(random, inputs_.AnyRunConfig(random));
    for (const std::string& set : sets) input += "\n--set " + set;
    return Attempt([&] {
      const driver::Experiment experiment = driver::LoadExperiment(file_.string(), sets);
      // Each point writes the result file named after it: two points of
      // one name would overwrite each other.
      std::set<std::string> names;
      for (const driver::ExperimentPoint& point : experiment.points) {
        if (!names.insert(point.name).second) {
          throw PropertyFailure{"two points are both named \"" + point.name +
                                "\", so one's result file overwrites the other's"};
        }
        if (point.micro_arguments.empty()) {
          CheckEcho(driver::RunConfig::FromJson(point.config));
        }
      }
    });
  }

 private:
  const ConfigInputs& inputs_;
  std::filesystem::path file_;
};

class NicProfileTarget final : public FuzzTarget {
 public:
  NicProfileTarget(const ConfigInputs& inputs, const std::filesystem::path& scratch)
      : inputs_(inputs), file_(scratch / "nic-profile.json") {}
  std::string_view kind() const override { return "nic-profile"; }
  CaseResult RunCase(Random& random, std::string& input) override {
    input = inputs_.NicProfileText(random);
    WriteFileWhole(file_, input);
    return Attempt([&] {
      const rdma::sim::NicProfile profile = rdma::sim::NicProfile::Load(file_.string());
      profile.CalibrationMarkdown();
      // Its values, given back as overrides, give the same profile: the
      // result echo describes the profile a run used.
      const nlohmann::json values = profile.ToJson();
      nlohmann::json overrides = values;
      overrides.erase("name");
      rdma::sim::NicProfile again = profile;
      JsonObjectReader reader(overrides, "nic_profile");
      try {
        again.ApplyOverrides(reader, "its own echo");
      } catch (const ConfigError& error) {
        throw PropertyFailure{std::string("its echo is refused as overrides: ") + error.what()};
      }
      if (again.ToJson() != values) throw PropertyFailure{"its echo reads back differently"};
      const auto read = rdma::sim::UnloadedReadTime(profile, 65536, rdma::sim::ReadPath::kRemote);
      if (read <= 0) throw PropertyFailure{"an unloaded READ takes no time"};
    });
  }

 private:
  const ConfigInputs& inputs_;
  std::filesystem::path file_;
};

}  // namespace

std::unique_ptr<FuzzTarget> MakeRunConfigTarget(const ConfigInputs& inputs,
                                                const std::filesystem::path& scratch) {
  return std::make_unique<RunConfigTarget>(inputs, scratch);
}

std::unique_ptr<FuzzTarget> MakeSetOverrideTarget(const ConfigInputs& inputs) {
  return std::make_unique<SetOverrideTarget>(inputs);
}

std::unique_ptr<FuzzTarget> MakeExperimentTarget(const ConfigInputs& inputs,
                                                 const std::filesystem::path& scratch) {
  return std::make_unique<ExperimentTarget>(inputs, scratch);
}

std::unique_ptr<FuzzTarget> MakeNicProfileTarget(const ConfigInputs& inputs,
                                                 const std::filesystem::path& scratch) {
  return std::make_unique<NicProfileTarget>(inputs, scratch);
}

}  // namespace dmbench::fuzz
