// Open-loop runs (run.target_mops): arrivals are a Poisson process of the
// offered rate; below capacity the achieved throughput is the offered load
// and the intended-start latency stays near the actual-start one; past it the
// intended-start latency takes the backlog that a closed loop would hide,
// and the arrivals still waiting at the window's end are censored rather
// than dropped; a closed-loop run records no intended latency and is as
// before.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "harness/driver/arrival_schedule.h"
#include "harness/driver/benchmark_runner.h"
#include "harness/driver/tests/driver_test_support.h"

namespace dmbench::driver {
namespace {

TEST(ArrivalSchedule, PoissonArrivalsAtTheOfferedRatePerClient) {
  // 4 Mops over 16 clients: 0.25 Mops each, a mean gap of 4000 ns.
  ArrivalSchedule arrivals(4.0, 16, 7, 3, 1'000'000);
  ASSERT_TRUE(arrivals.open());
  std::vector<double> gaps;
  uint64_t last = 1'000'000;
  for (int i = 0; i < 200'000; ++i) {
    const uint64_t next = arrivals.Next();
    ASSERT_GE(next, last);
    gaps.push_back(static_cast<double>(next - last));
    last = next;
  }
  double sum = 0, squares = 0;
  for (double gap : gaps) sum += gap;
  const double mean = sum / gaps.size();
  for (double gap : gaps) squares += (gap - mean) * (gap - mean);
  const double deviation = std::sqrt(squares / gaps.size());
  EXPECT_NEAR(mean, 4000, 40);
  EXPECT_NEAR(deviation / mean, 1.0, 0.02) << "exponential gaps: deviation = mean";
  ArrivalSchedule other_client(4.0, 16, 7, 4, 1'000'000);
  ArrivalSchedule same_client(4.0, 16, 7, 3, 1'000'000);
  EXPECT_NE(other_client.Next(), same_client.Next());
  EXPECT_FALSE(ArrivalSchedule(0, 16, 7, 3, 0).open());
}

const nlohmann::json& Overall(const nlohmann::json& result) {
  return result["operations"]["overall"];
}

TEST(OpenLoop, BelowCapacityTheOfferedLoadIsServedWithoutBacklog) {
  RunConfig config = test_support::SmallRun("sherman", "write-intensive");
  const double closed = RunBenchmark(config, nullptr).result["throughput_mops"].get<double>();
  config.target_mops = closed / 4;
  config.measure_ms = 2;
  const nlohmann::json result = RunBenchmark(config, nullptr).result;
  EXPECT_NEAR(result["throughput_mops"].get<double>(), config.target_mops,
              0.1 * config.target_mops);
  const nlohmann::json& overall = Overall(result);
  ASSERT_TRUE(overall.contains("intended_latency_us"));
  // At most what is in flight at the end: one arrival a client.
  const uint64_t censored = overall["censored_arrivals"].get<uint64_t>();
  EXPECT_LE(censored, config.topology.clients());
  EXPECT_EQ(overall["intended_latency_us"]["count"].get<uint64_t>(),
            overall["count"].get<uint64_t>() + censored);
  const double actual = overall["latency_us"]["p50"].get<double>();
  const double intended = overall["intended_latency_us"]["p50"].get<double>();
  EXPECT_GE(intended, actual);
  EXPECT_LT(intended, 1.5 * actual) << "a lightly loaded client seldom queues";
}

TEST(OpenLoop, PastCapacityTheIntendedStartLatencyCarriesTheBacklog) {
  RunConfig config = test_support::SmallRun("fgplus", "write-intensive");
  const double closed = RunBenchmark(config, nullptr).result["throughput_mops"].get<double>();
  config.target_mops = closed * 3;
  const nlohmann::json result = RunBenchmark(config, nullptr).result;
  const nlohmann::json& overall = Overall(result);
  EXPECT_LT(result["throughput_mops"].get<double>(), 0.6 * config.target_mops);
  EXPECT_GT(overall["intended_latency_us"]["p99"].get<double>(),
            3 * overall["latency_us"]["p99"].get<double>());
  // Offered three times what is served, over warm-up and window: about
  // twice as many arrivals are still waiting at the end as completed in the
  // window, and every one is in the intended latencies.
  const uint64_t censored = overall["censored_arrivals"].get<uint64_t>();
  EXPECT_GT(censored, overall["count"].get<uint64_t>());
  EXPECT_EQ(overall["intended_latency_us"]["count"].get<uint64_t>(),
            overall["count"].get<uint64_t>() + censored);
  // The oldest waited nearly the whole run: two thirds of it at 3x.
  const double run_us = (config.warmup_ms + config.measure_ms) * 1e3;
  EXPECT_GT(overall["intended_latency_us"]["max"].get<double>(), 0.5 * run_us);
}

TEST(OpenLoop, AClosedLoopRunRecordsNoIntendedLatency) {
  const nlohmann::json result =
      RunBenchmark(test_support::SmallRun("sherman", "write-intensive"), nullptr).result;
  EXPECT_FALSE(Overall(result).contains("intended_latency_us"));
  EXPECT_EQ(result["config"]["run"]["target_mops"], 0.0);
}

}  // namespace
}  // namespace dmbench::driver
