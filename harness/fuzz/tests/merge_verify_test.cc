// `dmbench merge`'s check of the compute servers' histories: against what
// the run bulkloaded (a trace's load file too), with every history the
// operations its result says were recorded, and never one server's own check
// passed off as the cluster's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "harness/driver/result_merge.h"
#include "harness/driver/run_config.h"
#include "harness/fuzz/config_inputs.h"
#include "harness/fuzz/merge_inputs.h"
#include "harness/fuzz/tests/merge_fixture.h"
#include "harness/rdma/errors.h"
#include "harness/util/tests/mentions.h"
#include "harness/util/tests/scratch_file.h"
#include "indexes/common/consistency_checker.h"
#include "workloads/trace_workload.h"
#include "workloads/ycsb_trace.h"

namespace dmbench::fuzz {
namespace {

class MergeVerify : public test_support::MergeFixture {
 protected:
  // Rewrites every compute server's result after `edit`.
  std::string MergeWith(const std::function<void(nlohmann::json&)>& edit) {
    return MergeFixture::MergeWith(edit, /*every_server=*/true);
  }
  std::filesystem::path History(size_t compute_server) const {
    return files_[compute_server] + ".history";
  }
  void WriteHistory(size_t compute_server, const indexes::ConsistencyChecker& checker) {
    std::ofstream out(History(compute_server), std::ios::binary | std::ios::trunc);
    checker.SaveHistory(out);
  }
};

TEST_F(MergeVerify, EveryServerMustHaveVerifiedOrNone) {
  const std::string message = MergeWith([](nlohmann::json& r) {
    if (r["cluster"]["compute_server"] == 0) r["verify"] = {{"enabled", false}};
  });
  EXPECT_TRUE(Mentions(message, "verify.enabled or verify.deferred_to_merge differ")) << message;
}

TEST_F(MergeVerify, OneServersOwnCheckIsNotTheClusters) {
  // Server 0 found no violation in its own clients' operations, server 1
  // found five: the merged result used to report server 0's check alone.
  const std::string message = MergeWith([](nlohmann::json& r) {
    const bool first = r["cluster"]["compute_server"] == 0;
    r["verify"] = {{"enabled", true},
                   {"operations_checked", 3},
                   {"violations", first ? 0 : 5},
                   {"examples", nlohmann::json::array()}};
  });
  EXPECT_TRUE(Mentions(message,
                       "cs-0.json: verify was checked by compute server 0 alone, but a "
                       "run of 2 compute servers leaves its check to merge"))
      << message;
}

TEST_F(MergeVerify, HistoryMustHoldWhatItsResultRecorded) {
  EXPECT_EQ(MergeWith([](nlohmann::json&) {}), "accepted");
  std::string message = MergeWith([](nlohmann::json& r) {
    if (r["cluster"]["compute_server"] == 1) r["verify"]["operations_recorded"] = 4;
  });
  EXPECT_TRUE(Mentions(message, "cs-1.json.history: holds 3 operations, but")) << message;
  EXPECT_TRUE(Mentions(message, "says verify.operations_recorded 4")) << message;

  // An empty history, with another history's bytes appended.
  indexes::ConsistencyChecker empty;
  std::ostringstream bytes;
  empty.SaveHistory(bytes);
  std::ifstream other(History(0), std::ios::binary);
  bytes << other.rdbuf();
  std::ofstream(History(1), std::ios::binary | std::ios::trunc) << bytes.str();
  message = MergeWith([](nlohmann::json&) {});
  EXPECT_TRUE(Mentions(message, "cs-1.json.history: history file: bytes follow its last range"))
      << message;
}

// Server 1's lookup began 30 us after server 0's upsert ended and missed
// it. With the processes' clocks drifting 60 us apart over the run, as
// their measures of the run say, that may be clock drift; with no drift it
// is a violation.
TEST_F(MergeVerify, ClockDriftOverTheRunWidensTheIntervals) {
  constexpr uint64_t kKey = 1'000'000;  // not bulkloaded: absent at first
  indexes::ConsistencyChecker server0;
  server0.RecordUpsert(0, kKey, 5, 10'000, 20'000);
  WriteHistory(0, server0);
  indexes::ConsistencyChecker server1;
  server1.RecordLookup(1, kKey, std::nullopt, 50'000, 60'000);
  WriteHistory(1, server1);
  auto with_drift = [](uint64_t drift_ns) {
    return [drift_ns](nlohmann::json& r) {
      const bool second = r["cluster"]["compute_server"] == 1;
      r["verify"]["operations_recorded"] = 1;
      r["verify"]["verified_elapsed_ns"] = 1'000'000 + (second ? drift_ns : 0);
    };
  };
  ASSERT_EQ(MergeWith(with_drift(60'000)), "accepted");
  // Start uncertainties 500 and 1,000 ns, end uncertainty 300 ns.
  EXPECT_EQ(merged_["verify"]["clock_widening_ns"], 1'000 + 300 + 60'000);
  EXPECT_EQ(merged_["verify"]["clock_drift_ns"], 60'000);
  EXPECT_EQ(merged_["verify"]["violations"], 0) << merged_["verify"].dump();
  ASSERT_EQ(MergeWith(with_drift(0)), "accepted");
  EXPECT_EQ(merged_["verify"]["clock_widening_ns"], 1'300);
  EXPECT_EQ(merged_["verify"]["violations"], 1) << merged_["verify"].dump();
}

TEST_F(MergeVerify, TraceRunsAreCheckedAgainstTheirLoadFile) {
  const std::string load = WriteScratchFile("load.txt",
                                            "INSERT usertable user1 [ field0=a ]\n"
                                            "INSERT usertable user2 [ field0=b ]\n");
  std::string reads;  // at least one operation per client
  for (int i = 0; i < 256; ++i) reads += "READ usertable user" + std::to_string(i % 2 + 1) + "\n";
  const std::string run = WriteScratchFile("run.txt", reads);
  const nlohmann::json workload = {{"trace", run}, {"trace_load", load}};
  auto with_trace = [&](nlohmann::json& r) { r["config"]["workload"] = workload; };
  nlohmann::json config = inputs_.results()[0]["config"];
  config["workload"] = workload;
  config["backend"].erase("compute_server");
  const driver::RunConfig resolved = driver::RunConfig::FromJson(config);
  const auto loaded =
      workloads::TraceWorkload(resolved.workload, resolved.topology.clients(), resolved.seed)
          .BulkloadEntries();
  ASSERT_EQ(loaded.size(), 2u);
  // Each server's client reads a loaded key, then one the trace never loaded.
  for (uint32_t cs = 0; cs < 2; ++cs) {
    indexes::ConsistencyChecker checker;
    checker.RecordLookup(cs, loaded[cs].first, loaded[cs].second, 1000, 3000);
    checker.RecordLookup(cs, workloads::YcsbKey("user9"), std::nullopt, 4000, 5000);
    checker.RecordLookup(cs, loaded[cs].first, loaded[cs].second, 6000, 7000);
    WriteHistory(cs, checker);
  }
  EXPECT_EQ(MergeWith(with_trace), "accepted");
  EXPECT_EQ(merged_["verify"]["operations_checked"], 6);
  EXPECT_EQ(merged_["verify"]["violations"], 0) << merged_["verify"].dump();

  // A value the load file did not give that key is found.
  indexes::ConsistencyChecker wrong;
  wrong.RecordLookup(1, loaded[1].first, loaded[1].second + 1, 1000, 3000);
  wrong.RecordLookup(1, loaded[0].first, loaded[0].second, 4000, 5000);
  wrong.RecordLookup(1, workloads::YcsbKey("user9"), std::nullopt, 6000, 7000);
  WriteHistory(1, wrong);
  EXPECT_EQ(MergeWith(with_trace), "accepted");
  EXPECT_EQ(merged_["verify"]["violations"], 1) << merged_["verify"].dump();
}

}  // namespace
}  // namespace dmbench::fuzz
