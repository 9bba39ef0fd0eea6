// A valid two-compute-server run's results and histories (MergeInputs) in a
// scratch directory, for tests of `dmbench merge` to damage and merge.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "harness/driver/result_merge.h"
#include "harness/fuzz/config_inputs.h"
#include "harness/fuzz/merge_inputs.h"
#include "harness/rdma/errors.h"
#include "harness/util/tests/scratch_file.h"

namespace dmbench::fuzz::test_support {

class MergeFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = ScratchPath("results");
    std::filesystem::create_directories(directory_);
    files_ = inputs_.WriteValid(directory_);
  }
  // Rewrites the results of the compute servers `edit` is given, each after
  // `edit`; the merge's refusal, or "accepted". The merged result, when
  // accepted, is in merged_.
  std::string MergeWith(const std::function<void(nlohmann::json&)>& edit,
                        bool every_server = false) {
    for (size_t i = 0; i < (every_server ? files_.size() : 1); ++i) {
      nlohmann::json result = inputs_.results()[i];
      edit(result);
      std::ofstream(files_[i]) << Text(result);
    }
    try {
      merged_ = driver::MergeResultFiles(files_);
    } catch (const ConfigError& error) {
      return error.what();
    }
    return "accepted";
  }

  MergeInputs inputs_;
  std::filesystem::path directory_;
  std::vector<std::string> files_;
  nlohmann::json merged_;
};

}  // namespace dmbench::fuzz::test_support
