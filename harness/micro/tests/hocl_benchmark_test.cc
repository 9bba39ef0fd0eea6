// The HOCL microbenchmark (Sherman Fig. 16) measures the paper's four steps
// apart: RDMA lock -> +On-Chip -> +Hierarchical (local lock tables with FIFO
// wait queues, no handover) -> +Handover, and the local lock tables without
// wait queues before +Hierarchical. plots/claims looks points up by these
// variant names.
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/micro/hocl_benchmark.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::micro {
namespace {

TEST(HoclBenchmark, DefaultVariantsAreThePapersStepsAndTheTablesWithoutQueues) {
  const std::vector<HoclVariant> variants = HoclBenchmarkConfig().variants;
  ASSERT_EQ(variants.size(), 5u);
  EXPECT_EQ(variants[0].name, "RDMA lock");
  EXPECT_EQ(variants[1].name, "+On-Chip");
  EXPECT_EQ(variants[2].name, kHoclNoWaitQueues);
  EXPECT_EQ(variants[3].name, "+Hierarchical");
  EXPECT_EQ(variants[4].name, "+Handover");
  // Each step adds exactly one technique to the one before.
  EXPECT_FALSE(variants[0].options.on_chip);
  EXPECT_FALSE(variants[0].options.hierarchical);
  EXPECT_TRUE(variants[1].options.on_chip);
  EXPECT_FALSE(variants[1].options.hierarchical);
  EXPECT_TRUE(variants[2].options.on_chip);
  EXPECT_TRUE(variants[2].options.hierarchical);
  EXPECT_FALSE(variants[2].options.wait_queues);
  EXPECT_EQ(variants[2].options.handover, 0u);
  EXPECT_TRUE(variants[3].options.hierarchical);
  EXPECT_TRUE(variants[3].options.wait_queues);
  EXPECT_EQ(variants[3].options.handover, 0u);
  EXPECT_TRUE(variants[4].options.hierarchical);
  EXPECT_TRUE(variants[4].options.wait_queues);
  EXPECT_EQ(variants[4].options.handover, 8u);  // Sherman's kMaxHandOverTime
  for (const HoclVariant& variant : variants) {
    EXPECT_EQ(variant.options.placement, indexes::LockPlacement::kTable) << variant.name;
    EXPECT_FALSE(variant.options.masked) << variant.name;
    EXPECT_FALSE(variant.options.faa_release) << variant.name;
  }
}

// The paper's eight machines each host a memory server and a compute server
// (§5.1), and its lock benchmark takes locks for Zipfian keys over its
// driver's 64 Mi keys.
TEST(HoclBenchmark, DefaultsAreThePapersClusterAndKeys) {
  const HoclBenchmarkConfig config;
  EXPECT_TRUE(config.topology.colocated);
  EXPECT_EQ(config.topology.compute_servers, 8u);
  EXPECT_EQ(config.topology.memory_servers, 8u);
  EXPECT_EQ(config.topology.clients(), 176u);
  EXPECT_EQ(config.locks, 10240u);
  EXPECT_EQ(config.key_space, uint64_t{1} << 26);
}

// A short run of the figure's set-up (176 clients, 10240 locks, Zipfian
// 0.99): one row per variant, in order. On-chip memory raises throughput;
// the local lock tables alone cut the tail (no client spins on the NIC
// behind its neighbours), their FIFO wait queues cut it further; handover
// raises throughput, as the global lock stays put.
TEST(HoclBenchmark, EachStepHelpsUnderSkew) {
  HoclBenchmarkConfig config;
  MicroOptions options;
  options.profile = rdma::sim::test_support::DefaultProfile();
  options.warmup_us = 2000;
  options.measure_us = 10000;
  std::ostringstream table;
  const nlohmann::json result = RunHoclBenchmark(config, options, table);
  const nlohmann::json& points = result.at("points");
  ASSERT_EQ(points.size(), 5u);
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].at("variant").get<std::string>(), config.variants[i].name);
  }
  auto mops = [&](size_t i) { return points[i].at("mops").get<double>(); };
  auto p99 = [&](size_t i) { return points[i].at("p99_us").get<double>(); };
  EXPECT_GT(mops(1), 1.2 * mops(0));
  EXPECT_LT(p99(3), 0.7 * p99(1));
  // Without wait queues a waiter can be passed over again and again.
  EXPECT_GT(p99(2), 1.1 * p99(3));
  EXPECT_GT(mops(4), 2 * mops(3));
}

// Sherman's driver prints node 0's percentiles. Sampling one compute server
// leaves the simulation and its throughput alone; on the co-located cluster
// compute server 0 reaches the locks over loopback, so its uncontended
// acquisitions are faster than the cluster's.
TEST(HoclBenchmark, LatencyFromOneComputeServerSamplesOnlyItsClients) {
  auto run = [](std::optional<uint32_t> server) {
    HoclBenchmarkConfig config;
    config.variants = {config.variants[3]};  // +Hierarchical: most acquisitions uncontended
    MicroOptions options;
    options.profile = rdma::sim::test_support::DefaultProfile();
    options.warmup_us = 500;
    options.measure_us = 2000;
    options.latency_compute_server = server;
    std::ostringstream table;
    return RunHoclBenchmark(config, options, table);
  };
  const nlohmann::json all = run(std::nullopt);
  const nlohmann::json first = run(0);
  EXPECT_EQ(all.at("latency_from"), "all");
  EXPECT_EQ(first.at("latency_from"), 0);
  const nlohmann::json& all_point = all.at("points").at(0);
  const nlohmann::json& first_point = first.at("points").at(0);
  EXPECT_EQ(all_point.at("operations"), first_point.at("operations"));
  EXPECT_EQ(all_point.at("simulator").at("events"), first_point.at("simulator").at("events"));
  EXPECT_LT(first_point.at("p50_us").get<double>(), 0.8 * all_point.at("p50_us").get<double>());
  EXPECT_THROW(run(8), ConfigError);
}

// Sherman's lock benchmark posts its release and goes on: an uncontended
// acquisition is then one round trip, not two.
TEST(HoclBenchmark, PostedReleasesSaveTheReleaseRoundTrip) {
  auto median_us = [](bool await_release) {
    HoclBenchmarkConfig config;
    config.await_release = await_release;
    config.variants = {config.variants[3]};  // +Hierarchical: most acquisitions uncontended
    MicroOptions options;
    options.profile = rdma::sim::test_support::DefaultProfile();
    options.warmup_us = 500;
    options.measure_us = 2000;
    std::ostringstream table;
    return RunHoclBenchmark(config, options, table).at("points").at(0).at("p50_us").get<double>();
  };
  const double posted = median_us(false);
  const double awaited = median_us(true);
  EXPECT_LT(posted, 2.5);
  EXPECT_GT(awaited - posted, 1.0);
}

}  // namespace
}  // namespace dmbench::micro
