#include "harness/fuzz/merge_target.h"

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/result_merge.h"
#include "harness/driver/run_statistics.h"
#include "harness/fuzz/config_inputs.h"

namespace dmbench::fuzz {

namespace {

class MergeTarget final : public FuzzTarget {
 public:
  MergeTarget(const MergeInputs& inputs, const std::filesystem::path& scratch)
      : inputs_(inputs), directory_(scratch / "merge") {
    std::filesystem::create_directories(directory_);
  }
  std::string_view kind() const override { return "merge"; }
  CaseResult RunCase(Random& random, std::string& input) override {
    const std::vector<std::string> files = inputs_.Write(random, directory_, input);
    return Attempt([&] {
      const nlohmann::json merged = driver::MergeResultFiles(files);
      // What the command does with an accepted merge: a summary and, with
      // --verify, the checker's verdict; its statistics read back.
      driver::SummaryTable(merged);
      driver::RunStatistics::FromJson(merged["operations"]);
      const nlohmann::json& verify = merged["verify"];
      if (!verify["enabled"].is_boolean() ||
          (verify["enabled"].get<bool>() && !verify["violations"].is_number_unsigned())) {
        throw PropertyFailure{"the merged verify section cannot be reported: " + Text(verify)};
      }
    });
  }

 private:
  const MergeInputs& inputs_;
  std::filesystem::path directory_;
};

}  // namespace

std::unique_ptr<FuzzTarget> MakeMergeTarget(const MergeInputs& inputs,
                                            const std::filesystem::path& scratch) {
  return std::make_unique<MergeTarget>(inputs, scratch);
}

}  // namespace dmbench::fuzz
