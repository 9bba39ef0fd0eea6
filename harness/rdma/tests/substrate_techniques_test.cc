// The substrate's techniques on their own mechanisms (SMART §4.2, §4.3):
// throttling caps a thread's outstanding work requests, and the backoff
// limit grows with the retry rate and shrinks when retries stop.
#include <gtest/gtest.h>

#include <vector>

#include "harness/rdma/conflict_avoidance.h"
#include "harness/rdma/memory_layout.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/rdma/work_request_throttle.h"

namespace dmbench::rdma {
namespace {

using sim::test_support::MakeCluster;
using sim::test_support::SmallTopology;

SubstrateOptions Backoff(bool throttle_coroutines) {
  SubstrateOptions options;
  options.cas_backoff = true;
  options.coroutine_throttling = throttle_coroutines;
  options.backoff_unit_ns = 1000;
  options.backoff_epoch_us = 20;
  return options;
}

// Operations that each retry `retries` times, for `epochs` epochs; returns
// the backoff limit after each epoch.
std::vector<uint64_t> Epochs(ConflictAvoidance& avoidance, Client& client, uint32_t epochs,
                             uint32_t tasks, uint32_t retries) {
  std::vector<uint64_t> limits;
  for (uint32_t epoch = 0; epoch < epochs; ++epoch) {
    const uint64_t end = client.NowNanoseconds() + 21000;
    while (client.NowNanoseconds() < end) {
      for (uint32_t task = 0; task < tasks; ++task) {
        avoidance.BeginTask(client);
        for (uint32_t retry = 0; retry < retries; ++retry) avoidance.Retry(client);
        avoidance.EndTask(client);
      }
      // The epoch is judged at a retry.
      if (retries == 0) {
        avoidance.BeginTask(client);
        avoidance.Retry(client);
        avoidance.EndTask(client);
      }
    }
    limits.push_back(avoidance.max_backoff_ns());
  }
  return limits;
}

TEST(ConflictAvoidance, BackoffLimitFollowsTheRetryRate) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  std::vector<uint64_t> rising;
  std::vector<uint64_t> falling;
  cluster->Run([&](Client& client) {
    ConflictAvoidance avoidance(Backoff(false), 1, 7);
    EXPECT_EQ(avoidance.max_backoff_ns(), 1000u);
    // Three retries per operation: a retry rate of 0.75, over the high mark.
    rising = Epochs(avoidance, client, 12, 1, 3);
    // Forty operations per retry: 0.024, under the low mark.
    falling = Epochs(avoidance, client, 14, 40, 0);
  });
  // Doubling each epoch up to 2^10 t0, then halving back to t0.
  EXPECT_EQ(rising.front(), 2000u);
  EXPECT_EQ(rising.back(), 1024000u);
  for (size_t i = 1; i < rising.size(); ++i) EXPECT_GE(rising[i], rising[i - 1]);
  EXPECT_EQ(falling.back(), 1000u);
  for (size_t i = 1; i < falling.size(); ++i) EXPECT_LE(falling[i], falling[i - 1]);
}

TEST(ConflictAvoidance, ARetryWaitsItsBackoffPlusAtMostOneUnit) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  std::vector<uint64_t> waits;
  cluster->Run([&](Client& client) {
    SubstrateOptions options = Backoff(false);
    options.backoff_epoch_us = 1e6;  // the limit stays t0 = 1000 ns
    ConflictAvoidance avoidance(options, 1, 7);
    avoidance.BeginTask(client);
    for (int retry = 0; retry < 4; ++retry) {
      const uint64_t start = client.NowNanoseconds();
      avoidance.Retry(client);
      waits.push_back(client.NowNanoseconds() - start);
    }
    avoidance.EndTask(client);
  });
  // Truncated at t_max = t0: every wait is t0 + rand(t0), plus the CPU of
  // resuming the coroutine (cpu_coroutine_switch_ns, 52 ns).
  for (uint64_t wait : waits) {
    EXPECT_GE(wait, 1000u);
    EXPECT_LT(wait, 2000u + 52u);
  }
}

TEST(ConflictAvoidance, CoroutineThrottlingShrinksFirstThenTheBackoff) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  std::vector<std::pair<uint32_t, uint64_t>> states;  // (running limit, t_max) per epoch
  cluster->Run([&](Client& client) {
    ConflictAvoidance avoidance(Backoff(true), 1, 7);
    EXPECT_EQ(avoidance.max_tasks(), ConflictAvoidance::kMaxTasks);
    for (int epoch = 0; epoch < 10; ++epoch) {
      Epochs(avoidance, client, 1, 1, 3);
      states.emplace_back(avoidance.max_tasks(), avoidance.max_backoff_ns());
    }
  });
  // The running limit halves from 64 to 1 while t_max stays t0; only then
  // does t_max grow.
  EXPECT_LT(states.front().first, ConflictAvoidance::kMaxTasks);
  EXPECT_EQ(states.front().second, 1000u);
  EXPECT_EQ(states.back().first, 1u);
  EXPECT_GT(states.back().second, 1000u);
  for (const auto& [tasks, backoff] : states) {
    if (backoff > 1000u) {
      EXPECT_EQ(tasks, 1u);
    }
  }
}

// Eight coroutines of one thread, each posting batches of two READs.
uint64_t MostOutstanding(const SubstrateOptions& options) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 8));
  WorkRequestThrottle throttle(options);
  cluster->Run([&](Client& client) {
    std::vector<uint8_t> buffer(16);
    std::vector<WorkRequest> batch(
        2, {.verb = Verb::kRead,
            .remote = GlobalAddress::Host(0, MemoryLayout::kFirstChunkOffset),
            .local = buffer.data(),
            .length = 8});
    for (int i = 0; i < 50; ++i) {
      throttle.Acquire(client, 2);
      client.Execute(batch);
      throttle.Release(client, 2);
    }
  });
  return throttle.most_outstanding();
}

TEST(WorkRequestThrottle, FixedCreditsCapOutstandingRequests) {
  SubstrateOptions options;
  options.work_request_throttling = WorkRequestThrottling::kFixed;
  options.work_request_credits = 4;
  EXPECT_EQ(MostOutstanding(options), 4u);
  options.work_request_credits = 1000;
  EXPECT_EQ(MostOutstanding(options), 16u);  // all eight coroutines at once
}

TEST(WorkRequestThrottle, AdaptiveTrainsOverTheCandidatesThenKeepsOne) {
  SubstrateOptions options;
  options.work_request_throttling = WorkRequestThrottling::kAdaptive;
  options.throttle_sample_us = 10;
  options.throttle_stable_samples = 1000;
  auto cluster = MakeCluster(SmallTopology(1, 1, 8));
  WorkRequestThrottle throttle(options);
  std::vector<uint32_t> limits;
  cluster->Run([&](Client& client) {
    std::vector<uint8_t> buffer(8);
    WorkRequest read{.verb = Verb::kRead,
                     .remote = GlobalAddress::Host(0, MemoryLayout::kFirstChunkOffset),
                     .local = buffer.data(),
                     .length = 8};
    while (client.NowNanoseconds() < 200000) {
      throttle.Acquire(client, 1);
      limits.push_back(throttle.max_credits());
      client.Execute(std::span(&read, 1));
      throttle.Release(client, 1);
    }
  });
  // It starts at 4, tries 6, 8, 10, 12 and unlimited, then keeps one.
  EXPECT_EQ(limits.front(), 4u);
  std::vector<uint32_t> seen;
  for (uint32_t limit : limits) {
    if (seen.empty() || seen.back() != limit) seen.push_back(limit);
  }
  ASSERT_GE(seen.size(), 6u);
  EXPECT_EQ(std::vector<uint32_t>(seen.begin(), seen.begin() + 6),
            (std::vector<uint32_t>{4, 6, 8, 10, 12, WorkRequestThrottle::kUnlimited}));
  // Eight coroutines with one request each complete less with 4 credits
  // than with 8 or more, so 4 is not what it keeps.
  EXPECT_NE(limits.back(), 4u);
}

}  // namespace
}  // namespace dmbench::rdma
