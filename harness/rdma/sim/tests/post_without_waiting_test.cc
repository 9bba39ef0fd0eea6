// Client::PostWithoutWaiting on the simulated fabric: the poster goes on at
// once, the WRITEs still take effect in QP order, their bytes are copied at
// the post, and they count as verbs but not as round trips.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::MakeCluster;
using test_support::SmallTopology;

constexpr GlobalAddress kTarget = GlobalAddress::Host(0, 1 << 20);

TEST(PostWithoutWaiting, ReturnsBeforeTheWriteCompletesYetLaterVerbsSeeIt) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  uint64_t post_ns = 0;
  uint64_t read_ns = 0;
  uint64_t seen = 0;
  OpStats stats;
  cluster->Run([&](Client& client) {
    StatsScope scope(client, stats);
    uint64_t value = 42;
    const uint64_t start = client.NowNanoseconds();
    const WorkRequest write{
        .verb = Verb::kWrite, .remote = kTarget, .local = &value, .length = sizeof(value)};
    client.PostWithoutWaiting(std::span(&write, 1));
    post_ns = client.NowNanoseconds() - start;
    value = 7;  // copied at the post: this must not reach memory
    const uint64_t before_read = client.NowNanoseconds();
    client.Read(kTarget, &seen, sizeof(seen));
    read_ns = client.NowNanoseconds() - before_read;
  });
  EXPECT_EQ(seen, 42u) << "a READ on the same QP ran ahead of the WRITE posted before it";
  // Posting costs CPU only; a round trip costs microseconds.
  EXPECT_LT(post_ns, 500u);
  EXPECT_GT(read_ns, 1000u);
  EXPECT_EQ(stats.writes, 1u);
  EXPECT_EQ(stats.bytes_written, 8u);
  EXPECT_EQ(stats.reads, 1u);
  EXPECT_EQ(stats.round_trips, 1u) << "only the READ was waited for";
}

// A client may end its run with posts in flight; they still land, and the
// cluster can run again.
TEST(PostWithoutWaiting, PostsInFlightAtTheEndOfARunStillLand) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 4));
  cluster->Run([&](Client& client) {
    for (uint64_t i = 1; i <= 100; ++i) {
      uint64_t value = i;
      const WorkRequest write{
          .verb = Verb::kWrite,
          .remote = GlobalAddress::Host(0, (1 << 20) + 8 * client.location().index),
          .local = &value,
          .length = sizeof(value)};
      client.PostWithoutWaiting(std::span(&write, 1));
    }
  });
  for (uint32_t client = 0; client < 4; ++client) {
    EXPECT_EQ(cluster->memory(0, MemorySpace::kHost).ReadWord((1 << 20) + 8 * client), 100u)
        << "client " << client;
  }
}

TEST(PostWithoutWaiting, RefusesVerbsWhoseResultNobodyWouldSee) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  std::string message;
  try {
    cluster->Run([&](Client& client) {
      const WorkRequest cas{.verb = Verb::kCompareAndSwap, .remote = kTarget, .length = 8};
      client.PostWithoutWaiting(std::span(&cas, 1));
    });
  } catch (const VerbError& error) {
    message = error.what();
  }
  EXPECT_TRUE(Mentions(message, "PostWithoutWaiting takes WRITEs only")) << message;
}

}  // namespace
}  // namespace dmbench::rdma::sim
