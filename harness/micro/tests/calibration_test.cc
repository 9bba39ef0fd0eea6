// The cx5-100g profile reproduces the public figures it was calibrated to
// (DESIGN.md; Sherman Figs. 2 and 3). These are simulated-time results, fully
// deterministic, so they guard the model against unnoticed drift; they say
// nothing about how fast the simulator itself runs.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/micro/atomic_benchmark.h"
#include "harness/micro/spinlock_benchmark.h"
#include "harness/micro/verb_benchmark.h"
#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::micro {
namespace {

MicroOptions Options(double warmup_us, double measure_us) {
  MicroOptions options;
  options.profile = rdma::sim::test_support::DefaultProfile();
  options.warmup_us = warmup_us;
  options.measure_us = measure_us;
  return options;
}

const nlohmann::json& Point(const nlohmann::json& result, size_t index) {
  return result.at("points").at(index);
}

TEST(Calibration, UnloadedSmallReadRoundTripIsAboutTwoMicroseconds) {
  VerbBenchmarkConfig config;
  config.verbs = {rdma::Verb::kRead};
  config.sizes = {8};
  config.topology.compute_servers = 1;
  config.topology.threads_per_compute_server = 1;
  std::ostringstream table;
  const nlohmann::json result = RunVerbBenchmark(config, Options(5, 50), table);
  const double p50 = Point(result, 0)["latency_us"]["p50"];
  EXPECT_GE(p50, 1.8);
  EXPECT_LE(p50, 2.4);
}

TEST(Calibration, SmallReadsSaturateOneNicAtAbout110Mops) {
  VerbBenchmarkConfig config;
  config.verbs = {rdma::Verb::kRead};
  config.sizes = {8};
  config.depth = 4;  // enough outstanding reads that the NIC, not the clients, is the limit
  std::ostringstream table;
  const double mops = Point(RunVerbBenchmark(config, Options(10, 50), table), 0)["mops"];
  EXPECT_GE(mops, 90);
  EXPECT_LE(mops, 130);
}

TEST(Calibration, WritesAreFastSmallAndBandwidthBoundLarge) {
  VerbBenchmarkConfig config;
  config.verbs = {rdma::Verb::kWrite};
  config.sizes = {8, 128, 256, 1024, 4096};
  std::ostringstream table;
  const nlohmann::json result = RunVerbBenchmark(config, Options(20, 200), table);
  EXPECT_GE(Point(result, 0)["mops"].get<double>(), 50);
  EXPECT_GE(Point(result, 1)["mops"].get<double>(), 50);
  for (size_t i = 2; i < 5; ++i) {
    const double bandwidth = Point(result, i)["gigabytes_per_second"];
    EXPECT_GE(bandwidth, 11.0) << "size " << Point(result, i)["io_bytes"];
    EXPECT_LE(bandwidth, 12.5) << "size " << Point(result, i)["io_bytes"];
  }
}

TEST(Calibration, SameAddressCasIsSlowOnHostAndFasterOnChip) {
  AtomicBenchmarkConfig config;
  config.address_counts = {1};
  std::ostringstream table;
  const nlohmann::json result = RunAtomicBenchmark(config, Options(10, 100), table);
  const double host = Point(result, 0)["mops"];
  const double on_chip = Point(result, 1)["mops"];
  EXPECT_GE(host, 1.5);
  EXPECT_LE(host, 2.5);
  // On-chip atomics are calibrated on Sherman Fig. 16's on-chip step (2.89x
  // throughput for spin locks moved on chip), not on an absolute rate.
  EXPECT_GE(on_chip / host, 2.0);
  EXPECT_LE(on_chip / host, 3.6);
}

TEST(Calibration, SpinLocksCollapseUnderSkew) {
  SpinlockBenchmarkConfig config;
  config.thetas = {0, 0.99};
  config.releases = {LockRelease::kFetchAndAdd};
  std::ostringstream table;
  const nlohmann::json result = RunSpinlockBenchmark(config, Options(1000, 5000), table);
  const double uniform = Point(result, 0)["mops"];
  const double skewed = Point(result, 1)["mops"];
  EXPECT_GE(uniform, 10 * skewed);
  EXPECT_GE(Point(result, 1)["latency_us"]["p99"].get<double>(), 1000);  // milliseconds
}

}  // namespace
}  // namespace dmbench::micro
