// The preset table and the factory: what a config's index.engine and
// index.preset may name, and what they build.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "indexes/index_factory.h"
#include "indexes/index_presets.h"

namespace dmbench::indexes {
namespace {

rdma::ClusterShape SmallShape() {
  using namespace rdma::sim::test_support;
  return rdma::sim::SimCluster::ShapeOf(SmallTopology(1, 1, 1), DefaultProfile());
}

TEST(IndexPresets, EveryPresetRunsOnAKnownEngineAndValidates) {
  const std::vector<std::string> engines = IndexEngineNames();
  ASSERT_FALSE(IndexPresets().empty());
  for (const IndexPreset& preset : IndexPresets()) {
    EXPECT_NE(std::find(engines.begin(), engines.end(), preset.engine), engines.end())
        << preset.name;
    EXPECT_FALSE(preset.description.empty()) << preset.name;
    EXPECT_EQ(&FindIndexPreset(preset.name), &preset);
    const rdma::ClusterShape shape = SmallShape();
    EXPECT_NO_THROW(preset.blink_options().Validate(shape)) << preset.name;
  }
}

TEST(IndexPresets, ThePaperIndexesAreTheirPresets) {
  EXPECT_EQ(FindIndexPreset("sherman").blink_options().Describe(),
            TreeOptions::Sherman().Describe());
  EXPECT_EQ(FindIndexPreset("fgplus").blink_options().Describe(), TreeOptions::FgPlus().Describe());
  EXPECT_EQ(FindIndexPreset("shermanplus").blink_options().Describe(),
            TreeOptions::ShermanPlus().Describe());
  EXPECT_EQ(FindIndexPreset("smartbt").blink_options().Describe(),
            TreeOptions::SmartBt().Describe());
  EXPECT_EQ(IndexPresetNames(kBLinkEngine),
            (std::vector<std::string>{"sherman", "fgplus", "shermanplus", "smartbt"}));
}

// SMART-BT is Sherman+ plus speculative lookup plus SMART's substrate
// techniques; the Sherman paper's presets leave the substrate as it is.
TEST(IndexPresets, OnlySmartBtTurnsSubstrateTechniquesOn) {
  for (const char* name : {"sherman", "fgplus", "shermanplus"}) {
    EXPECT_EQ(FindIndexPreset(name).Substrate().ToJson(), rdma::SubstrateOptions().ToJson())
        << name;
  }
  const rdma::SubstrateOptions smart = FindIndexPreset("smartbt").Substrate();
  EXPECT_TRUE(smart.per_thread_doorbells);
  EXPECT_EQ(smart.work_request_throttling, rdma::WorkRequestThrottling::kAdaptive);
  EXPECT_TRUE(smart.cas_backoff);
  EXPECT_TRUE(smart.coroutine_throttling);
  TreeOptions sherman_plus = TreeOptions::ShermanPlus();
  EXPECT_EQ(sherman_plus.consistency, Consistency::kCacheline);
  EXPECT_FALSE(sherman_plus.speculative_lookup);
  sherman_plus.speculative_lookup = true;
  EXPECT_EQ(sherman_plus.Describe(), TreeOptions::SmartBt().Describe());
}

TEST(IndexPresets, AnUnknownNameListsWhatExists) {
  try {
    FindIndexPreset("btree");
    FAIL() << "no error";
  } catch (const ConfigError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("index.preset"), std::string::npos) << message;
    EXPECT_NE(message.find("'btree'"), std::string::npos) << message;
    EXPECT_NE(message.find("sherman, fgplus, shermanplus, smartbt"), std::string::npos) << message;
  }
  EXPECT_THROW(MakeIndex("radix", TreeOptions::Sherman(), SmallShape(), 1), ConfigError);
}

}  // namespace
}  // namespace dmbench::indexes
