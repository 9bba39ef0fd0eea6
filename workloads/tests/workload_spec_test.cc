// WorkloadSpec: named mixes resolve to the paper's and YCSB's definitions, and every bad field of
// a config is a ConfigError naming workload.<field> and what is allowed.
#include "workloads/workload_spec.h"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::workloads {
namespace {

using nlohmann::json;

WorkloadSpec Read(const json& document) {
  WorkloadSpec spec;
  JsonObjectReader reader(document, "workload");
  spec.ReadJson(reader);
  return spec;
}

std::string ErrorOf(const json& document) {
  try {
    Read(document);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

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
  EXPECT_EQ(spec, Read(json{{"mix", "write-intensive"}}));
  EXPECT_EQ(spec, Read(json::object()));
}

TEST(WorkloadSpecTest, NamedMixesResolveToTheirFractions) {
  ExpectFractions(Read({{"mix", "write-only"}}), {1, 0, 0, 0, 0});
  ExpectFractions(Read({{"mix", "write-intensive"}}), {0.5, 0, 0.5, 0, 0});
  ExpectFractions(Read({{"mix", "read-intensive"}}), {0.05, 0, 0.95, 0, 0});
  ExpectFractions(Read({{"mix", "range-only"}}), {0, 0, 0, 0, 1});
  ExpectFractions(Read({{"mix", "range-write"}}), {0.5, 0, 0, 0, 0.5});
  ExpectFractions(Read({{"mix", "ycsb-a"}}), {0, 0.5, 0.5, 0, 0});
  ExpectFractions(Read({{"mix", "ycsb-b"}}), {0, 0.05, 0.95, 0, 0});
  ExpectFractions(Read({{"mix", "ycsb-c"}}), {0, 0, 1, 0, 0});
  ExpectFractions(Read({{"mix", "ycsb-d"}}), {0.05, 0, 0.95, 0, 0});
  ExpectFractions(Read({{"mix", "ycsb-e"}}), {0.05, 0, 0, 0, 0.95});
  EXPECT_EQ(WorkloadSpec::MixNames().size(), 11u);
}

TEST(WorkloadSpecTest, MixesSetTheirSplitAndDistribution) {
  for (const std::string& mix : WorkloadSpec::MixNames()) {
    if (mix == "custom") continue;
    const WorkloadSpec spec = Read({{"mix", mix}});
    EXPECT_EQ(spec.split_clients, mix == "range-write") << mix;
    EXPECT_EQ(spec.distribution == KeyDistribution::kLatest, mix == "ycsb-d") << mix;
  }
  EXPECT_EQ(Read({{"mix", "write-only"}, {"distribution", "uniform"}}).distribution,
            KeyDistribution::kUniform);
}

TEST(WorkloadSpecTest, CustomFractionsComeFromTheConfigAndMustSumToOne) {
  const WorkloadSpec spec =
      Read({{"mix", "custom"}, {"insert", 0.2}, {"lookup", 0.5}, {"delete", 0.1}, {"range", 0.2}});
  ExpectFractions(spec, {0.2, 0, 0.5, 0.1, 0.2});
  EXPECT_FALSE(spec.split_clients);

  const std::string error = ErrorOf({{"mix", "custom"}, {"insert", 0.5}, {"lookup", 0.4}});
  EXPECT_TRUE(Mentions(error, "workload.insert"));
  EXPECT_TRUE(Mentions(error, "workload.delete"));
  EXPECT_TRUE(Mentions(error, "must sum to 1"));
  EXPECT_TRUE(Mentions(error, "0.9"));
  EXPECT_TRUE(Mentions(ErrorOf({{"mix", "custom"}}), "must sum to 1"));
  EXPECT_TRUE(Mentions(ErrorOf({{"mix", "custom"}, {"update", 1.5}}), "workload.update"));
}

TEST(WorkloadSpecTest, BadMixNameListsTheAllowedNames) {
  const std::string error = ErrorOf({{"mix", "ycsb-f"}});
  EXPECT_TRUE(Mentions(error, "workload.mix"));
  for (const std::string& mix : WorkloadSpec::MixNames()) EXPECT_TRUE(Mentions(error, mix));
  EXPECT_THROW(WorkloadSpec().SetMix("ycsb-f"), ConfigError);
}

TEST(WorkloadSpecTest, FractionsAreFixedByNamedMixes) {
  const std::string error = ErrorOf({{"mix", "write-only"}, {"insert", 0.7}, {"lookup", 0.3}});
  EXPECT_TRUE(Mentions(error, "workload.insert"));
  EXPECT_TRUE(Mentions(error, "fixed"));
  EXPECT_TRUE(Mentions(error, "write-only"));
  EXPECT_TRUE(Mentions(error, "custom"));
  EXPECT_TRUE(Mentions(ErrorOf({{"mix", "ycsb-c"}, {"delete", 0.1}}), "workload.delete"));
  // The values the mix fixes are accepted, so that a resolved spec reads back.
  EXPECT_NO_THROW(Read({{"mix", "write-only"}, {"insert", 1.0}, {"range", 0.0}}));
  EXPECT_TRUE(Mentions(ErrorOf({{"mix", "write-only"}, {"split_clients", true}}),
                       "workload.split_clients"));
}

TEST(WorkloadSpecTest, EachBadFieldNamesItselfAndWhatIsAllowed) {
  const std::string theta = ErrorOf({{"theta", 1.0}});
  EXPECT_TRUE(Mentions(theta, "workload.theta"));
  EXPECT_TRUE(Mentions(theta, "[0, 1)"));
  EXPECT_TRUE(Mentions(ErrorOf({{"theta", -0.1}}), "workload.theta"));
  const std::string keys = ErrorOf({{"keys", 0}});
  EXPECT_TRUE(Mentions(keys, "workload.keys"));
  EXPECT_TRUE(Mentions(keys, "[16, "));
  EXPECT_TRUE(Mentions(ErrorOf({{"keys", 15}}), "workload.keys"));
  EXPECT_TRUE(Mentions(ErrorOf({{"bulkload_fraction", 0.0}}), "workload.bulkload_fraction"));
  EXPECT_TRUE(Mentions(ErrorOf({{"bulkload_fraction", 1.5}}), "workload.bulkload_fraction"));
  EXPECT_TRUE(
      Mentions(ErrorOf({{"keys", 16}, {"bulkload_fraction", 0.01}}), "must load at least one"));
  EXPECT_TRUE(Mentions(ErrorOf({{"range_size", 0}}), "workload.range_size"));
  EXPECT_TRUE(Mentions(ErrorOf({{"scan_max", 0}}), "workload.scan_max"));
  const std::string distribution = ErrorOf({{"distribution", "normal"}});
  EXPECT_TRUE(Mentions(distribution, "workload.distribution"));
  EXPECT_TRUE(Mentions(distribution, "zipfian, uniform, latest"));
  EXPECT_TRUE(
      Mentions(ErrorOf({{"mix", "ycsb-c"}, {"distribution", "latest"}}), "workload.distribution"));
  EXPECT_TRUE(
      Mentions(ErrorOf({{"mix", "ycsb-d"}, {"distribution", "uniform"}}), "must be latest"));
  EXPECT_TRUE(Mentions(ErrorOf({{"thetta", 0.5}}), "workload.thetta"));
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
    const WorkloadSpec spec = Read(document);
    const json written = spec.ToJson();
    for (const char* key :
         {"mix", "insert", "update", "lookup", "delete", "range", "distribution", "theta", "keys",
          "bulkload_fraction", "range_size", "scan_max", "split_clients"}) {
      EXPECT_TRUE(written.contains(key)) << key;
    }
    EXPECT_EQ(Read(written), spec) << written.dump();
    EXPECT_EQ(Read(written).ToJson(), written);
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
