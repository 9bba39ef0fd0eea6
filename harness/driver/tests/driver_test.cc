// Run configs, experiments and the benchmark runner end to end.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/experiment.h"
#include "harness/driver/tests/driver_test_support.h"
#include "harness/rdma/errors.h"
#include "indexes/index_presets.h"

namespace dmbench::driver {
namespace {

using test_support::WriteTemp;

std::string MessageOf(const nlohmann::json& document) {
  try {
    RunConfig::FromJson(document);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(RunConfig, DefaultsAreThePaperSetupScaledDown) {
  const RunConfig config = RunConfig::FromJson(nlohmann::json::object());
  EXPECT_EQ(config.index_engine, "blink");
  EXPECT_EQ(config.index_preset, "sherman");
  EXPECT_EQ(config.topology.compute_servers, 8u);
  EXPECT_EQ(config.topology.threads_per_compute_server, 22u);
  EXPECT_TRUE(config.topology.colocated);
  EXPECT_EQ(config.workload.mix, "write-intensive");
  EXPECT_DOUBLE_EQ(config.workload.theta, 0.99);
  EXPECT_DOUBLE_EQ(config.fill_factor, 0.8);
}

TEST(RunConfig, IndexSectionEditsItsPreset) {
  const RunConfig fgplus =
      RunConfig::FromJson({{"index", {{"preset", "fgplus"}, {"combine", true}}}});
  EXPECT_EQ(fgplus.index.consistency, indexes::Consistency::kCrc);
  EXPECT_TRUE(fgplus.index.combine);
  EXPECT_FALSE(fgplus.index.on_chip);
  const nlohmann::json written = fgplus.ToJson()["index"];
  EXPECT_EQ(written["engine"], "blink");
  EXPECT_EQ(written["preset"], "fgplus");
  EXPECT_FALSE(written.contains("type"));
}

// Result files written before engines and presets were told apart name the
// preset `type`; they still load, so that their points can be re-run.
TEST(RunConfig, TheOldSpellingOfThePresetStillLoads) {
  const RunConfig old = RunConfig::FromJson({{"index", {{"type", "fgplus"}}}});
  EXPECT_EQ(old.index_preset, "fgplus");
  EXPECT_EQ(old.index.consistency, indexes::Consistency::kCrc);
  EXPECT_NE(MessageOf({{"index", {{"type", "fgplus"}, {"preset", "sherman"}}}})
                .find("index.type: the old name of index.preset"),
            std::string::npos);
}

TEST(RunConfig, BadFieldsAreNamedWithWhatIsAllowed) {
  EXPECT_NE(MessageOf({{"index", {{"preset", "bwtree"}}}})
                .find("index.preset: must be one of {sherman, fgplus, shermanplus, smartbt}"),
            std::string::npos);
  EXPECT_NE(
      MessageOf({{"index", {{"engine", "radix"}}}}).find("index.engine: must be one of {blink}"),
      std::string::npos);
  EXPECT_NE(MessageOf({{"indx", {}}}).find("unknown key indx"), std::string::npos);
  EXPECT_NE(MessageOf({{"index", {{"combyne", true}}}}).find("unknown key index.combyne"),
            std::string::npos);
  EXPECT_NE(MessageOf({{"run", {{"measure_ms", -1}}}}).find("run.measure_ms"), std::string::npos);
  EXPECT_NE(MessageOf({{"topology", {{"compute_servers", 0}}}}).find("topology.compute_servers"),
            std::string::npos);
  EXPECT_NE(MessageOf({{"backend", {{"type", "rdma"}}}}).find("backend.type"), std::string::npos);
  EXPECT_NE(MessageOf({{"workload", {{"mix", "nope"}}}}).find("workload.mix"), std::string::npos);
}

TEST(RunConfig, SubstrateTechniquesAreOffUnlessAsked) {
  EXPECT_FALSE(RunConfig::FromJson(nlohmann::json::object()).substrate.per_thread_doorbells);
  const RunConfig config = RunConfig::FromJson({{"substrate", {{"per_thread_doorbells", true}}}});
  EXPECT_TRUE(config.substrate.per_thread_doorbells);
  EXPECT_EQ(config.ToJson().at("substrate").at("per_thread_doorbells"), true);
  EXPECT_NE(MessageOf({{"substrate", {{"per_thread_doorbell", true}}}})
                .find("unknown key substrate.per_thread_doorbell"),
            std::string::npos);
  EXPECT_NE(MessageOf({{"substrate", {{"per_thread_doorbells", 1}}}})
                .find("substrate.per_thread_doorbells"),
            std::string::npos);
  // Every technique runs on the verbs backend too (a device without thread
  // domains is a recorded fallback, not a config error).
  EXPECT_EQ(MessageOf({{"backend", {{"type", "verbs"}}}, {"index", {{"preset", "smartbt"}}}}),
            "accepted");
}

// SMART-BT is an index and the SMART techniques under it: its preset turns
// them on, and the substrate section edits them like any field.
TEST(RunConfig, SmartBtPresetBringsItsSubstrateTechniques) {
  const RunConfig smart = RunConfig::FromJson({{"index", {{"preset", "smartbt"}}}});
  EXPECT_TRUE(smart.index.speculative_lookup);
  EXPECT_TRUE(smart.substrate.per_thread_doorbells);
  EXPECT_TRUE(smart.substrate.cas_backoff);
  EXPECT_EQ(smart.substrate.work_request_throttling, rdma::WorkRequestThrottling::kAdaptive);
  const RunConfig edited = RunConfig::FromJson(
      {{"index", {{"preset", "smartbt"}}}, {"substrate", {{"per_thread_doorbells", false}}}});
  EXPECT_FALSE(edited.substrate.per_thread_doorbells);
  EXPECT_TRUE(edited.substrate.cas_backoff);
  EXPECT_EQ(RunConfig::FromJson(edited.ToJson()).ToJson(), edited.ToJson());
  EXPECT_FALSE(
      RunConfig::FromJson({{"index", {{"preset", "shermanplus"}}}}).substrate.per_thread_doorbells);
}

TEST(RunConfig, SetOverridesParseJsonOrTakeAString) {
  nlohmann::json document = nlohmann::json::object();
  document = ApplySet(document, "index.combine=false");
  document = ApplySet(document, "index.preset=fgplus");
  document = ApplySet(document, "workload.theta=0.5");
  EXPECT_EQ(document["index"]["combine"], false);
  EXPECT_EQ(document["index"]["preset"], "fgplus");
  EXPECT_EQ(document["workload"]["theta"], 0.5);
  EXPECT_THROW(ApplySet(document, "no-equals-sign"), ConfigError);
  EXPECT_THROW(ApplySet(document, "index..combine=1"), ConfigError);
  EXPECT_THROW(ApplySet(document, "workload.theta.x=1"), ConfigError);
}

TEST(RunConfig, ResolvedConfigRoundTrips) {
  const RunConfig config = test_support::SmallRun("fgplus", "read-intensive");
  const RunConfig again = RunConfig::FromJson(config.ToJson());
  EXPECT_EQ(again.ToJson(), config.ToJson());
}

TEST(BenchmarkRunner, SameConfigTwiceGivesIdenticalResultsApartFromWallClock) {
  const RunConfig config = test_support::SmallRun("sherman", "write-intensive");
  const nlohmann::json first = RunBenchmark(config, nullptr).result;
  const nlohmann::json second = RunBenchmark(config, nullptr).result;
  EXPECT_EQ(test_support::WithoutWallClock(first), test_support::WithoutWallClock(second));
  RunConfig other = config;
  other.seed = 4;
  EXPECT_NE(test_support::WithoutWallClock(RunBenchmark(other, nullptr).result),
            test_support::WithoutWallClock(first));
}

TEST(BenchmarkRunner, VerifiedRunsOfEveryPresetPass) {
  for (const std::string& type : indexes::IndexPresetNames(indexes::kBLinkEngine)) {
    for (const std::string mix : {"write-intensive", "range-write", "ycsb-e", "ycsb-b"}) {
      RunConfig config = test_support::SmallRun(type, mix);
      config.verify = true;
      // Long enough that every variant checks well over a thousand operations.
      config.measure_ms = 1;
      const BenchmarkOutcome outcome = RunBenchmark(config, nullptr);
      EXPECT_TRUE(outcome.verified_ok)
          << type << " " << mix << ": " << outcome.result["verify"].dump(2);
      EXPECT_GT(outcome.result["verify"]["operations_checked"].get<uint64_t>(), 1000u);
      EXPECT_GT(outcome.result["throughput_mops"].get<double>(), 0);
    }
  }
}

// An operation's latency starts once its key is drawn, as Sherman's
// benchmark times it; the draw still costs its thread CPU, which shows in
// throughput. One client per thread: coroutines of a thread share its CPU,
// so one's draw would delay the others' operations.
TEST(BenchmarkRunner, LatencyStartsOnceTheKeyIsDrawn) {
  RunConfig config = test_support::SmallRun("sherman", "read-intensive");
  config.topology.coroutines_per_thread = 1;
  const nlohmann::json base = RunBenchmark(config, nullptr).result;
  config.backend.nic_overrides["cpu_key_generation_ns"] = 50'000;
  const nlohmann::json slow = RunBenchmark(config, nullptr).result;
  EXPECT_LT(slow["latency_us"]["p99"].get<double>(), 50);
  EXPECT_LT(slow["throughput_mops"].get<double>(), base["throughput_mops"].get<double>() / 5);
}

TEST(BenchmarkRunner, ShermanBeatsFgPlusOnSkewedWrites) {
  const double fgplus = RunBenchmark(test_support::SmallRun("fgplus", "write-intensive"), nullptr)
                            .result["throughput_mops"];
  const double sherman = RunBenchmark(test_support::SmallRun("sherman", "write-intensive"), nullptr)
                             .result["throughput_mops"];
  EXPECT_GT(sherman, fgplus);
}

TEST(Experiment, VariantsCrossTheSweepAndEveryPointIsValidated) {
  const nlohmann::json definition = {
      {"name", "breakdown"},
      {"figure", "Fig. 10"},
      {"base", {{"workload", {{"keys", 1000}}}}},
      {"variants",
       {{{"name", "FG+"}, {"set", {{"index.preset", "fgplus"}}}},
        {{"name", "+Combine"}, {"set", {{"index.preset", "fgplus"}, {"index.combine", true}}}}}},
      {"sweep",
       {{"workload.mix", {"write-only", "read-intensive"}}, {"workload.theta", {0, 0.99}}}}};
  const Experiment experiment = LoadExperiment(WriteTemp("breakdown.json", definition), {});
  ASSERT_EQ(experiment.points.size(), 8u);
  EXPECT_EQ(experiment.points[0].name, "FG+__workload.mix=write-only__workload.theta=0");
  EXPECT_EQ(experiment.points[7].config["index"]["combine"], true);
  EXPECT_EQ(experiment.points[7].config["workload"]["theta"], 0.99);
  EXPECT_EQ(experiment.points[7].config["name"], "breakdown/" + experiment.points[7].name);

  nlohmann::json bad = definition;
  bad["variants"][1]["set"]["index.handover"] = -1;
  try {
    LoadExperiment(WriteTemp("bad.json", bad), {});
    ADD_FAILURE() << "a bad point was accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("point +Combine"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("index.handover"), std::string::npos) << error.what();
  }
  bad = definition;
  bad["sweep"]["workload.theta"] = nlohmann::json::array();
  EXPECT_THROW(LoadExperiment(WriteTemp("bad2.json", bad), {}), ConfigError);
  bad = definition;
  bad["variantz"] = 1;
  EXPECT_THROW(LoadExperiment(WriteTemp("bad3.json", bad), {}), ConfigError);
}

// Paths joined by a comma are one axis: their values go together, and the
// axis crosses the others and the variants like any axis.
TEST(Experiment, LinkedSweepPathsTakeTheirValuesTogether) {
  const nlohmann::json definition = {
      {"name", "scalability"},
      {"base", {{"workload", {{"keys", 1000}}}}},
      {"variants",
       {{{"name", "FG+"}, {"set", {{"index.preset", "fgplus"}}}},
        {{"name", "Sherman"}, {"set", {{"index.preset", "sherman"}}}}}},
      {"sweep",
       {{"topology.threads_per_compute_server,topology.coroutines_per_thread",
         {{1, 1}, {4, 1}, {4, 2}}},
        {"workload.theta", {0.9, 0.99}}}}};
  const Experiment experiment = LoadExperiment(WriteTemp("linked.json", definition), {});
  ASSERT_EQ(experiment.points.size(), 12u);
  EXPECT_EQ(experiment.points[0].name,
            "FG+__topology.coroutines_per_thread=1__topology.threads_per_compute_server=1__"
            "workload.theta=0.9");
  const nlohmann::json& last = experiment.points[11].config;
  EXPECT_EQ(last["index"]["preset"], "sherman");
  EXPECT_EQ(last["topology"]["threads_per_compute_server"], 4);
  EXPECT_EQ(last["topology"]["coroutines_per_thread"], 2);
  EXPECT_EQ(last["workload"]["theta"], 0.99);

  nlohmann::json bad = definition;
  bad["sweep"]["topology.threads_per_compute_server,topology.coroutines_per_thread"][1] = {4};
  try {
    LoadExperiment(WriteTemp("linked_bad.json", bad), {});
    ADD_FAILURE() << "a linked value of the wrong length was accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("sweep.topology.threads_per_compute_server,topology.coroutines_per_thread:"
                        " each value must be a list of 2 values, one per path; got [4]"),
              std::string::npos)
        << error.what();
  }

  // An axis named by 100 kB of the file is quoted cut short, in both refusals.
  const std::string long_axis = "workload.theta,workload.keys" + std::string(100000, '{');
  for (const nlohmann::json& values : {nlohmann::json::array(), nlohmann::json{{1}}}) {
    nlohmann::json long_named = definition;
    long_named["sweep"] = {{long_axis, values}};
    try {
      LoadExperiment(WriteTemp("linked_long.json", long_named), {});
      ADD_FAILURE() << "a sweep with a bad axis was accepted";
    } catch (const ConfigError& error) {
      const std::string message = error.what();
      EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
      EXPECT_NE(message.find("sweep.workload.theta,workload.keys{{{"), std::string::npos);
      EXPECT_NE(message.find(values.empty() ? "must be a non-empty list of values"
                                            : "each value must be a list of 2 values"),
                std::string::npos)
          << message.substr(0, 400);
    }
  }
}

// The figure registry's two fields: the name ae/run.sh knows, and the plot.
TEST(Experiment, FigureRegistrationIsChecked) {
  const nlohmann::json definition = {{"name", "registered"},
                                     {"ae", "fig10"},
                                     {"plot", {{"script", "fig10"}, {"options", {{"figure", 10}}}}},
                                     {"base", {{"workload", {{"keys", 1000}}}}}};
  EXPECT_NO_THROW(LoadExperiment(WriteTemp("registered.json", definition), {}));
  auto message = [&](const char* name, const nlohmann::json& changed) {
    try {
      LoadExperiment(WriteTemp(name, changed), {});
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  nlohmann::json bad = definition;
  bad["ae"] = "fig 10";
  EXPECT_NE(message("bad_ae.json", bad).find("ae: \"fig 10\""), std::string::npos);
  bad = definition;
  bad["plot"].erase("script");
  EXPECT_NE(message("no_script.json", bad).find("plot.script"), std::string::npos);
  bad = definition;
  bad["plot"]["options"] = 10;
  EXPECT_NE(message("bad_options.json", bad).find("plot.options"), std::string::npos);
  bad = definition;
  bad["plot"]["scirpt"] = "fig10";
  EXPECT_NE(message("typo.json", bad).find("plot.scirpt"), std::string::npos);
}

TEST(Experiment, EveryShippedExperimentLoads) {
  const std::filesystem::path directory =
      std::filesystem::path(DMBENCH_SOURCE_DIR) / "configs" / "experiments";
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_NO_THROW(LoadExperiment(entry.path().string(), {})) << entry.path();
    // At the paper's scale too, every point at the key count its
    // paper_scale documents (the open-loop experiment, not the paper's,
    // documents none and runs at the §5 setup's billion).
    const Experiment paper = LoadExperiment(entry.path().string(), {}, ExperimentScale::kPaper);
    const nlohmann::json documented =
        paper.definition.value("paper_scale", nlohmann::json::object())
            .value("key_count", nlohmann::json(1000000000));
    for (const ExperimentPoint& point : paper.points) {
      if (!point.micro_arguments.empty()) continue;
      EXPECT_EQ(point.config["workload"]["keys"], documented) << entry.path() << point.name;
    }
    ++count;
  }
  EXPECT_GT(count, 0u);
  EXPECT_NO_THROW(
      LoadExperiment((directory.parent_path() / "soak" / "checked-soak.json").string(), {}));
}

TEST(Experiment, PaperScaleAppliesItsSetAndSweep) {
  const nlohmann::json definition = {
      {"name", "cache"},
      {"paper_scale",
       {{"keys", "text for readers"},
        {"set", {{"workload.keys", 5000}, {"index.cache_mib", 7}}},
        {"sweep", {{"index.cache_mib", {0, 3}}}}}},
      {"base", {{"workload", {{"keys", 1000}}}}},
      {"variants", {{{"name", "FG+"}, {"set", {{"index.preset", "fgplus"}}}}}},
      {"sweep", {{"index.cache_mib", {1, 2, 4}}}}};
  const std::string file = WriteTemp("cache.json", definition);
  const Experiment laptop = LoadExperiment(file, {});
  ASSERT_EQ(laptop.points.size(), 3u);
  EXPECT_EQ(laptop.points[0].config["workload"]["keys"], 1000);

  const Experiment paper = LoadExperiment(file, {}, ExperimentScale::kPaper);
  ASSERT_EQ(paper.points.size(), 2u);
  EXPECT_EQ(paper.points[1].name, "FG+__index.cache_mib=3");
  EXPECT_EQ(paper.points[1].config["workload"]["keys"], 5000);
  EXPECT_EQ(paper.points[1].config["index"]["cache_mib"], 3);
  // A --set wins over the paper's setup, as over the base.
  const Experiment edited = LoadExperiment(file, {"workload.keys=6000"}, ExperimentScale::kPaper);
  EXPECT_EQ(edited.points[0].config["workload"]["keys"], 6000);

  auto message = [&](const char* name, const nlohmann::json& changed, ExperimentScale scale) {
    try {
      LoadExperiment(WriteTemp(name, changed), {}, scale);
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  nlohmann::json bad = definition;
  bad["paper_scale"].erase("set");
  EXPECT_EQ(message("no_set.json", bad, ExperimentScale::kAsDefined), "accepted");
  EXPECT_NE(message("no_set.json", bad, ExperimentScale::kPaper)
                .find("--paper-scale: the experiment states no paper_scale.set"),
            std::string::npos);
  // Malformed paper-scale fields fail at either scale, named.
  bad = definition;
  bad["paper_scale"]["set"] = 5;
  EXPECT_NE(message("bad_set.json", bad, ExperimentScale::kAsDefined)
                .find("paper_scale.set: must be an object"),
            std::string::npos);
  bad = definition;
  bad["paper_scale"]["sweep"]["index.cache_mib"] = nlohmann::json::array();
  EXPECT_NE(message("bad_sweep.json", bad, ExperimentScale::kAsDefined)
                .find("paper_scale.sweep.index.cache_mib: must be a non-empty list"),
            std::string::npos);
  bad = definition;
  bad["paper_scale"]["set"]["workload.keyz"] = 1;
  EXPECT_NE(message("typo.json", bad, ExperimentScale::kPaper).find("workload.keyz"),
            std::string::npos);
  // A path through a field that is not an object is named once.
  bad = definition;
  bad["base"]["workload"] = 5;
  bad["paper_scale"]["set"] = {{"workload.keys", 1000}};
  const std::string through = message("through.json", bad, ExperimentScale::kPaper);
  EXPECT_NE(through.find("paper_scale.set: workload.keys: workload is not an object"),
            std::string::npos)
      << through;
  EXPECT_EQ(through.find("workload.keys"), through.rfind("workload.keys")) << through;
}

}  // namespace
}  // namespace dmbench::driver
