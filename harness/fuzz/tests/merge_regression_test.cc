// `dmbench merge` on damaged results, as `dmbench fuzz` found them: each is
// refused with a ConfigError naming the file and the field, where merge
// used to read fields unchecked (nlohmann's type_error, or undefined
// behaviour on a missing key of a const document).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "harness/driver/result_merge.h"
#include "harness/fuzz/config_inputs.h"
#include "harness/fuzz/merge_inputs.h"
#include "harness/fuzz/tests/merge_fixture.h"
#include "harness/rdma/errors.h"
#include "harness/util/tests/mentions.h"
#include "harness/util/tests/scratch_file.h"

namespace dmbench::fuzz {
namespace {

// MergeWith rewrites compute server 0's result.
using MergeRegression = test_support::MergeFixture;

TEST_F(MergeRegression, UndamagedResultsMerge) {
  const nlohmann::json merged = driver::MergeResultFiles(files_);
  EXPECT_EQ(merged["cluster"]["merged_from"], 2);
  EXPECT_EQ(merged["verify"]["violations"], 0);
}

TEST_F(MergeRegression, ResultThatIsNotAnObjectIsNamed) {
  EXPECT_TRUE(Mentions(MergeWith([](nlohmann::json& r) {
                         r = {1, 2};
                       }),
                       "cs-0.json: a result must be a JSON object"));
}

TEST_F(MergeRegression, MissingOrMistypedSectionsAreNamed) {
  EXPECT_TRUE(Mentions(MergeWith([](nlohmann::json& r) { r["backend"]["fallbacks"] = nullptr; }),
                       "cs-0.json: backend.fallbacks: is required: a list"));
  EXPECT_TRUE(Mentions(MergeWith([](nlohmann::json& r) { r["config"]["backend"] = 5; }),
                       "cs-0.json: config.backend: must be a JSON object"));
  EXPECT_TRUE(Mentions(MergeWith([](nlohmann::json& r) { r.erase("wall_clock"); }),
                       "cs-0.json: wall_clock: is required: an object"));
  EXPECT_TRUE(Mentions(MergeWith([](nlohmann::json& r) { r["verify"].erase("enabled"); }),
                       "cs-0.json: verify.enabled: is required"));
  EXPECT_TRUE(Mentions(MergeWith([](nlohmann::json& r) { r["schema_version"] = 2; }),
                       "cs-0.json: schema_version: is 2, this dmbench merges 1"));
}

TEST_F(MergeRegression, LongValuesAreQuotedShort) {
  // Operation names and buckets of 100 KB were quoted whole.
  const std::string name(100000, '{');
  EXPECT_LT(MergeWith([&](nlohmann::json& r) { r["operations"]["by_op"][name] = 1; }).size(), 500u);
  EXPECT_LT(MergeWith([](nlohmann::json& r) {
              r["operations"]["by_op"]["lookup"]["read_retries"]["buckets"][0] =
                  std::string(100000, 'a');
            }).size(),
            500u);
  EXPECT_LT(
      MergeWith([](nlohmann::json& r) { r["backend"]["type"] = std::string(100000, 't'); }).size(),
      500u);
}

TEST_F(MergeRegression, MeasuredWindowMustBePositive) {
  // 0 made every throughput infinite, written as null, which the summary
  // then failed to print.
  EXPECT_TRUE(Mentions(MergeWith([](nlohmann::json& r) { r["measured_seconds"] = 0; }),
                       "cs-0.json: measured_seconds: must be a number in"));
}

TEST_F(MergeRegression, HistoryFileMustSitBesideTheResult) {
  EXPECT_TRUE(
      Mentions(MergeWith([](nlohmann::json& r) { r["verify"]["history_file"] = "/etc/hostname"; }),
               "verify.history_file: must be a file name beside the result"));
}

TEST_F(MergeRegression, AMissingHistoryIsNamedShort) {
  // A 126 KB history file name was quoted whole (fuzz --seed 2 --kinds merge
  // --case 12311).
  const std::string message =
      MergeWith([](nlohmann::json& r) { r["verify"]["history_file"] = std::string(126000, '['); });
  EXPECT_LT(message.size(), 500u);
  EXPECT_TRUE(Mentions(message, "cannot open the run's history")) << message;
}

TEST_F(MergeRegression, DamagedHistoryIsNamed) {
  std::ofstream(directory_ / "cs-1.json.history", std::ios::binary | std::ios::trunc) << "DMBHIST";
  try {
    driver::MergeResultFiles(files_);
    FAIL() << "merged a damaged history";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), "cs-1.json.history: history file: not a dmbench"));
  }
}

TEST_F(MergeRegression, RunsOfDifferentClustersAreNotMerged) {
  EXPECT_TRUE(
      Mentions(MergeWith([](nlohmann::json& r) { r["cluster"]["compute_servers"] = 3; }),
               "cluster.compute_servers, verify.enabled or verify.deferred_to_merge differ"));
}

}  // namespace
}  // namespace dmbench::fuzz
