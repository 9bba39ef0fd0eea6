// The requester-side mechanisms of the NIC model (doorbell registers, the
// cache of outstanding work requests) and the per-thread doorbell
// technique, seen through the scale-up benchmark on the cx6-200g profile.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/micro/scale_up_benchmark.h"
#include "harness/rdma/sim/nic_profile.h"

namespace dmbench::micro {
namespace {

rdma::sim::NicProfile ConnectX6() { return rdma::sim::NicProfile::Find("cx6-200g"); }

// Mops by (per-thread doorbell?, threads, depth), READs only.
std::map<std::tuple<bool, uint32_t, uint32_t>, double> Measure(const rdma::sim::NicProfile& profile,
                                                               std::vector<uint32_t> threads,
                                                               std::vector<uint32_t> depths) {
  ScaleUpBenchmarkConfig config;
  config.verbs = {rdma::Verb::kRead};
  config.thread_counts = std::move(threads);
  config.depths = std::move(depths);
  MicroOptions options;
  options.profile = profile;
  options.warmup_us = 20;
  options.measure_us = 100;
  std::ostringstream table;
  const nlohmann::json result = RunScaleUpBenchmark(config, options, table);
  std::map<std::tuple<bool, uint32_t, uint32_t>, double> mops;
  for (const nlohmann::json& point : result.at("points")) {
    const bool per_thread = point.at("doorbells") == "per-thread doorbell";
    mops[{per_thread, point.at("threads").get<uint32_t>(), point.at("depth").get<uint32_t>()}] =
        point.at("mops").get<double>();
  }
  return mops;
}

// SMART Fig. 3(a): per-thread QPs peak near 32 threads and fall to about
// half by 96, while per-thread doorbells reach the NIC's limit.
TEST(ScaleUpBenchmark, SharedDoorbellsCollapseAndPerThreadDoorbellsDoNot) {
  const auto mops = Measure(ConnectX6(), {32, 96}, {8});
  const double qp_32 = mops.at({false, 32, 8});
  const double qp_96 = mops.at({false, 96, 8});
  const double doorbell_96 = mops.at({true, 96, 8});
  EXPECT_LT(qp_96, 0.6 * qp_32);
  EXPECT_GT(doorbell_96, 4 * qp_96);
  EXPECT_GT(doorbell_96, 100);
}

// rdma-core's mlx5 provider gives the first 4 QPs a register each and the
// next 12 one shared register each: up to 16 threads (one QP each) nobody
// shares, so the two policies time every verb alike; the 17th thread's QP
// shares the first shared register with the 5th.
TEST(ScaleUpBenchmark, QueuePairsShareDoorbellsOnlyPastTheRegisters) {
  const auto mops = Measure(ConnectX6(), {16, 40}, {8});
  EXPECT_EQ(mops.at({false, 16, 8}), mops.at({true, 16, 8}));
  EXPECT_LT(mops.at({false, 40, 8}), mops.at({true, 40, 8}));
}

TEST(ScaleUpBenchmark, WithoutSharedDoorbellsThePoliciesAreOneFabric) {
  rdma::sim::NicProfile profile = ConnectX6();
  profile.doorbells_shared = 0;
  const auto mops = Measure(profile, {96}, {8});
  EXPECT_EQ(mops.at({false, 96, 8}), mops.at({true, 96, 8}));
}

// SMART Fig. 4(a): past what the NIC caches, more outstanding work requests
// cost throughput; with no cache modelled, depth costs nothing.
TEST(ScaleUpBenchmark, OutstandingRequestsPastTheCacheCostThroughput) {
  const auto cached = Measure(ConnectX6(), {96}, {8, 32});
  EXPECT_LT(cached.at({true, 96, 32}), 0.7 * cached.at({true, 96, 8}));

  rdma::sim::NicProfile profile = ConnectX6();
  profile.wqe_cache_entries = 0;
  const auto uncached = Measure(profile, {96}, {8, 32});
  EXPECT_GE(uncached.at({true, 96, 32}), 0.95 * uncached.at({true, 96, 8}));
}

}  // namespace
}  // namespace dmbench::micro
