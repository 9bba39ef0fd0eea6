// WorkloadSpec: named mixes resolve to the paper's and YCSB's definitions, and every bad field of
// a config is a ConfigError naming workload.<field> and what is allowed.
#include "workloads/workload_spec.h"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"
#include "harness/util/tests/mentions.h"
#include "workloads/tests/spec_reading.h"

namespace dmbench::workloads {
namespace {

using nlohmann::json;

using test_support::ReadSpec;
using test_support::SpecErrorOf;

struct Fractions {
  double insert, update, lookup, remove, range;
};

void ExpectFractions(const WorkloadSpec& spec, const Fractions& expected) {
  SCOPED_TRACE(spec.mix);
  EXPECT_DOUBLE_EQ(spec.insert, expected.insert);
  EXPECT_DOUBLE_EQ(spec.update, expected.update);
  EXPECT_DOUBLE_EQ(spec.lookup, expected.lookup);
  EXPECT_DOUBLE_EQ(spec.remove, expected.remove);
  EXPECT_DOUBLE_EQ(spec.range, expected.range);
}

TEST(WorkloadSpecTest, DefaultSpecIsTheResolvedWriteIntensiveMix) {
  const WorkloadSpec spec;
  EXPECT_NO_THROW(spec.Validate());
  EXPECT_EQ(spec, ReadSpec(json{{"mix", "write-intensive"}}));
  EXPECT_EQ(spec, ReadSpec(json::object()));
}

TEST(WorkloadSpecTest, NamedMixesResolveToTheirFractions) {
  ExpectFractions(ReadSpec({{"mix", "write-only"}}), {1, 0, 0, 0, 0});
  ExpectFractions(ReadSpec({{"mix", "write-intensive"}}), {0.5, 0, 0.5, 0, 0});
  ExpectFractions(ReadSpec({{"mix", "read-intensive"}}), {0.05, 0, 0.95, 0, 0});
  ExpectFractions(ReadSpec({{"mix", "range-only"}}), {0, 0, 0, 0, 1});
  ExpectFractions(ReadSpec({{"mix", "range-write"}}), {0.5, 0, 0, 0, 0.5});
  ExpectFractions(ReadSpec({{"mix", "ycsb-a"}}), {0, 0.5, 0.5, 0, 0});
  ExpectFractions(ReadSpec({{"mix", "ycsb-b"}}), {0, 0.05, 0.95, 0, 0});
  ExpectFractions(ReadSpec({{"mix", "ycsb-c"}}), {0, 0, 1, 0, 0});
  ExpectFractions(ReadSpec({{"mix", "ycsb-d"}}), {0.05, 0, 0.95, 0, 0});
  ExpectFractions(ReadSpec({{"mix", "ycsb-e"}}), {0.05, 0, 0, 0, 0.95});
  EXPECT_EQ(WorkloadSpec::MixNames().size(), 11u);
}

TEST(WorkloadSpecTest, MixesSetTheirSplitAndDistribution) {
  for (const std::string& mix : WorkloadSpec::MixNames()) {
    if (mix == "custom") continue;
    const WorkloadSpec spec = ReadSpec({{"mix", mix}});
    EXPECT_EQ(spec.split_clients, mix == "range-write") << mix;
    EXPECT_EQ(spec.distribution == KeyDistribution::kLatest, mix == "ycsb-d") << mix;
  }
  EXPECT_EQ(ReadSpec({{"mix", "write-only"}, {"distribution", "uniform"}}).distribution,
            KeyDistribution::kUniform);
}

TEST(WorkloadSpecTest, CustomFractionsComeFromTheConfigAndMustSumToOne) {
  const WorkloadSpec spec = ReadSpec(
      {{"mix", "custom"}, {"insert", 0.2}, {"lookup", 0.5}, {"delete", 0.1}, {"range", 0.2}});
  ExpectFractions(spec, {0.2, 0, 0.5, 0.1, 0.2});
  EXPECT_FALSE(spec.split_clients);

  const std::string error = SpecErrorOf({{"mix", "custom"}, {"insert", 0.5}, {"lookup", 0.4}});
  EXPECT_TRUE(Mentions(error, "workload.insert"));
  EXPECT_TRUE(Mentions(error, "workload.delete"));
  EXPECT_TRUE(Mentions(error, "must sum to 1"));
  EXPECT_TRUE(Mentions(error, "0.9"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"mix", "custom"}}), "must sum to 1"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"mix", "custom"}, {"update", 1.5}}), "workload.update"));
}

TEST(WorkloadSpecTest, BadMixNameListsTheAllowedNames) {
  const std::string error = SpecErrorOf({{"mix", "ycsb-f"}});
  EXPECT_TRUE(Mentions(error, "workload.mix"));
  for (const std::string& mix : WorkloadSpec::MixNames()) EXPECT_TRUE(Mentions(error, mix));
  EXPECT_THROW(WorkloadSpec().SetMix("ycsb-f"), ConfigError);
}

TEST(WorkloadSpecTest, FractionsAreFixedByNamedMixes) {
  const std::string error = SpecErrorOf({{"mix", "write-only"}, {"insert", 0.7}, {"lookup", 0.3}});
  EXPECT_TRUE(Mentions(error, "workload.insert"));
  EXPECT_TRUE(Mentions(error, "fixed"));
  EXPECT_TRUE(Mentions(error, "write-only"));
  EXPECT_TRUE(Mentions(error, "custom"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"mix", "ycsb-c"}, {"delete", 0.1}}), "workload.delete"));
  // The values the mix fixes are accepted, so that a resolved spec reads back.
  EXPECT_NO_THROW(ReadSpec({{"mix", "write-only"}, {"insert", 1.0}, {"range", 0.0}}));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"mix", "write-only"}, {"split_clients", true}}),
                       "workload.split_clients"));
}

TEST(WorkloadSpecTest, EachBadFieldNamesItselfAndWhatIsAllowed) {
  const std::string theta = SpecErrorOf({{"theta", 1.0}});
  EXPECT_TRUE(Mentions(theta, "workload.theta"));
  EXPECT_TRUE(Mentions(theta, "[0, 1)"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"theta", -0.1}}), "workload.theta"));
  const std::string keys = SpecErrorOf({{"keys", 0}});
  EXPECT_TRUE(Mentions(keys, "workload.keys"));
  EXPECT_TRUE(Mentions(keys, "[16, "));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"keys", 15}}), "workload.keys"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"bulkload_fraction", 0.0}}), "workload.bulkload_fraction"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"bulkload_fraction", 1.5}}), "workload.bulkload_fraction"));
  EXPECT_TRUE(
      Mentions(SpecErrorOf({{"keys", 16}, {"bulkload_fraction", 0.01}}), "must load at least one"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"range_size", 0}}), "workload.range_size"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"scan_max", 0}}), "workload.scan_max"));
  const std::string distribution = SpecErrorOf({{"distribution", "normal"}});
  EXPECT_TRUE(Mentions(distribution, "workload.distribution"));
  EXPECT_TRUE(Mentions(distribution, "zipfian, uniform, latest"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"mix", "ycsb-c"}, {"distribution", "latest"}}),
                       "workload.distribution"));
  EXPECT_TRUE(
      Mentions(SpecErrorOf({{"mix", "ycsb-d"}, {"distribution", "uniform"}}), "must be latest"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"thetta", 0.5}}), "workload.thetta"));
}

TEST(WorkloadSpecTest, ValidateChecksProgrammaticSpecs) {
  WorkloadSpec spec;
  spec.theta = 1.0;
  EXPECT_THROW(spec.Validate(), ConfigError);
  spec = WorkloadSpec();
  spec.SetMix("custom");
  spec.insert = 0.3;
  try {
    spec.Validate();
    ADD_FAILURE() << "fractions summing to 0.8 were accepted";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), "workload.insert"));
  }
}

TEST(WorkloadSpecTest, ErrorLeavesTheSpecUnchanged) {
  WorkloadSpec spec;
  const json document = {{"mix", "ycsb-a"}, {"keys", 1000}, {"theta", 2.0}};
  JsonObjectReader reader(document, "workload");
  EXPECT_THROW(spec.ReadJson(reader), ConfigError);
  EXPECT_EQ(spec, WorkloadSpec());
}

TEST(WorkloadSpecTest, JsonRoundTripGivesTheSameSpec) {
  const json documents[] = {
      {{"mix", "ycsb-d"}, {"theta", 0.7}, {"keys", 12345}, {"bulkload_fraction", 0.5}},
      {{"mix", "range-write"}, {"distribution", "uniform"}, {"range_size", 1000}},
      {{"mix", "ycsb-e"}, {"scan_max", 7}},
      {{"mix", "custom"},
       {"insert", 0.1},
       {"update", 0.2},
       {"lookup", 0.3},
       {"delete", 0.15},
       {"range", 0.25}},
  };
  for (const json& document : documents) {
    const WorkloadSpec spec = ReadSpec(document);
    const json written = spec.ToJson();
    for (const char* key :
         {"mix", "insert", "update", "lookup", "delete", "range", "distribution", "theta", "keys",
          "bulkload_fraction", "range_size", "scan_max", "split_clients"}) {
      EXPECT_TRUE(written.contains(key)) << key;
    }
    EXPECT_EQ(ReadSpec(written), spec) << written.dump();
    EXPECT_EQ(ReadSpec(written).ToJson(), written);
  }
}

TEST(WorkloadSpecTest, NamesOfEnums) {
  EXPECT_STREQ(OpTypeName(OpType::kInsert), "insert");
  EXPECT_STREQ(OpTypeName(OpType::kUpdate), "update");
  EXPECT_STREQ(OpTypeName(OpType::kLookup), "lookup");
  EXPECT_STREQ(OpTypeName(OpType::kDelete), "delete");
  EXPECT_STREQ(OpTypeName(OpType::kRange), "range");
  EXPECT_STREQ(KeyDistributionName(KeyDistribution::kLatest), "latest");
}

}  // namespace
}  // namespace dmbench::workloads
