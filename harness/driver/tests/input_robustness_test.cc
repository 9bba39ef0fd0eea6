// Damaged input found by `dmbench fuzz`, kept as regression tests: each is
// refused with a clear error (ConfigError naming the field), before
// anything runs, instead of escaping as a library's exception or failing
// late.
#include <gtest/gtest.h>

#include <string>

#include "harness/driver/experiment.h"
#include "harness/driver/memory_budget.h"
#include "harness/driver/run_config.h"
#include "harness/driver/tests/driver_test_support.h"
#include "harness/rdma/errors.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::driver {
namespace {

using test_support::WriteTemp;

// The ConfigError message of `attempt`, or "accepted".
template <typename Attempt>
std::string Refusal(Attempt attempt) {
  try {
    attempt();
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(SetOverride, ValueThatIsNotUtf8IsRefused) {
  // Used to escape as nlohmann's type_error 316 when the value was printed.
  const std::string message =
      Refusal([] { ApplySet(nlohmann::json::object(), "index.preset=\xff\xfe"); });
  EXPECT_TRUE(Mentions(message, "--set index.preset: the value \\xff\\xfe is not valid UTF-8"));
}

TEST(SetOverride, OverflowingNumberIsABareWordNotACrash) {
  // "1e999" used to escape as nlohmann's out_of_range 406.
  EXPECT_EQ(ApplySet(nlohmann::json::object(), "run.measure_ms=1e999")["run"]["measure_ms"],
            "1e999");
  EXPECT_TRUE(Mentions(
      Refusal([] { LoadRunConfig(nlohmann::json::object(), "c.json", {"run.measure_ms=1e999"}); }),
      "run.measure_ms: must be a number"));
}

TEST(SetOverride, LongPathsAreQuotedShort) {
  const std::string path(100000, 'p');
  EXPECT_LT(Refusal([&] { ApplySet(nlohmann::json::object(), path); }).size(), 300u);
  EXPECT_LT(
      Refusal([&] { LoadRunConfig(nlohmann::json::object(), "c.json", {path + "=1"}); }).size(),
      400u);
}

TEST(SetOverride, PathThroughAValueNamesIt) {
  EXPECT_TRUE(
      Mentions(Refusal([] { SetPath(5, "a.b", 1); }), "a.b: the document is not an object"));
  EXPECT_TRUE(Mentions(Refusal([] { SetPath({{"a", 1}}, "a.b", 1); }), "a.b: a is not an object"));
}

TEST(Experiment, BaseMustBeAnObject) {
  // Used to escape as nlohmann's type_error 305.
  const nlohmann::json definition = {{"name", "e"}, {"base", 256}};
  EXPECT_TRUE(Mentions(Refusal([&] { LoadExperiment(WriteTemp("base.json", definition), {}); }),
                       "base: must be a run config (a JSON object)"));
}

TEST(Experiment, PointsOfOneNameAreRefused) {
  // A sweep value twice, or two variant names that one file name stands
  // for: the second point's result file used to overwrite the first's.
  const nlohmann::json twice = {{"name", "e"},
                                {"base", {{"workload", {{"keys", 1000}}}}},
                                {"sweep", {{"workload.mix", {"write-only", "write-only"}}}}};
  EXPECT_TRUE(Mentions(Refusal([&] { LoadExperiment(WriteTemp("twice.json", twice), {}); }),
                       "two points are named workload.mix=write-only"));
  const nlohmann::json alike = {{"name", "e"},
                                {"base", {{"workload", {{"keys", 1000}}}}},
                                {"variants", {{{"name", "a/b"}}, {{"name", "a-b"}}}}};
  EXPECT_TRUE(Mentions(Refusal([&] { LoadExperiment(WriteTemp("alike.json", alike), {}); }),
                       "two points are named a-b"));
}

TEST(Experiment, LongNamesAreQuotedShort) {
  const nlohmann::json definition = {{"name", "fig" + std::string(30000, '[')}};
  EXPECT_LT(Refusal([&] { LoadExperiment(WriteTemp("name.json", definition), {}); }).size(), 400u);
}

TEST(Experiment, PointNamesFitAFileName) {
  const nlohmann::json definition = {{"name", "e"},
                                     {"base", {{"workload", {{"keys", 1000}}}}},
                                     {"variants", {{{"name", std::string(300, 'v')}}}}};
  EXPECT_TRUE(Mentions(Refusal([&] { LoadExperiment(WriteTemp("long.json", definition), {}); }),
                       "its name, the variant's and the sweep values', is 300 bytes"));
}

TEST(MachineBudget, KeySpaceBeyondThisMachineIsRefusedBeforeTheRun) {
  // 2^48 keys used to allocate until the kernel killed the process (or
  // std::bad_alloc), after minutes. Now no memory server size holds them.
  EXPECT_TRUE(Mentions(Refusal([] {
                         LoadRunConfig({{"workload", {{"keys", uint64_t{1} << 48}}}}, "c.json", {});
                       }),
                       "more than topology.host_memory_mib allows (268435456)"));
  // 2^40 keys fit memory servers of 4 TiB each, but not this machine.
  const RunConfig config = LoadRunConfig(
      {{"workload", {{"keys", uint64_t{1} << 40}}}, {"topology", {{"host_memory_mib", 1 << 22}}}},
      "c.json", {});
  EXPECT_TRUE(
      Mentions(Refusal([&] { RequireMachineFor(config); }), "workload.keys (1099511627776 keys"));
  // 0.8 x 2^40 bulkloaded keys of 16 B in 1 KiB nodes (0.8 x 2^34), each
  // node's shape and first-touch bookkeeping (24 B).
  EXPECT_EQ(RunMemoryLowerBound(config, 0), uint64_t{329853488332});
}

TEST(MachineBudget, HintTablesBeyondThisMachineAreRefused) {
  // SMART-BT's hint tables are taken whole when the tree is built: 2^32 per
  // compute server, 8 of them, is 768 GiB before the first operation.
  const RunConfig huge = LoadRunConfig(
      {{"index", {{"preset", "smartbt"}, {"speculative_hints", uint64_t{1} << 32}}}}, "c.json", {});
  EXPECT_TRUE(Mentions(Refusal([&] { RequireMachineFor(huge); }),
                       "index.speculative_hints (4294967296 per compute server, 24 bytes each"));
  const RunConfig smart = LoadRunConfig({{"index", {{"preset", "smartbt"}}}}, "c.json", {});
  EXPECT_EQ(Refusal([&] { RequireMachineFor(smart); }), "accepted");
  EXPECT_EQ(RunMemoryLowerBound(smart, 0) -
                RunMemoryLowerBound(LoadRunConfig(nlohmann::json::object(), "c.json", {}), 0),
            uint64_t{8} * 1'000'000 * 24);
}

TEST(MachineBudget, SimulatedClientsBeyondTheMappingLimitAreRefused) {
  // 640 000 coroutine stacks used to spin in mmap for minutes, then fail.
  const RunConfig config = LoadRunConfig(
      {{"topology", {{"threads_per_compute_server", 10000}, {"coroutines_per_thread", 8}}}},
      "c.json", {});
  EXPECT_TRUE(Mentions(Refusal([&] { RequireMachineFor(config); }),
                       "topology: the simulated fabric runs all 640000 clients"));
  EXPECT_TRUE(Mentions(Refusal([&] { RequireMachineFor(config); }), "(vm.max_map_count)"));
  EXPECT_EQ(
      Refusal([] { RequireMachineFor(LoadRunConfig(nlohmann::json::object(), "c.json", {})); }),
      "accepted");
}

}  // namespace
}  // namespace dmbench::driver
