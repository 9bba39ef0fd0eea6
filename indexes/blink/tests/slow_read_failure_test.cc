// When 4-bit versions make a run give up on READs slower than the wrap
// window, the error tells a window too short for one READ of the node (the
// config cannot work) apart from an overloaded memory server, with the
// unloaded READ time beside the measured one.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "harness/util/tests/mentions.h"
#include "indexes/blink/tests/tree_test_support.h"

namespace dmbench::indexes {
namespace {

// The error of clients doing lookups on a bulkloaded Sherman tree that
// retries slow lookups (or as `retry` says), or "" if they all finish; their
// stats summed in *total.
std::string LookupFailure(double wrap_window_us, uint32_t threads, uint32_t coroutines,
                          WrapRetry retry = WrapRetry::kLookups, IndexOpStats* total = nullptr) {
  TreeOptions options = TreeOptions::Sherman();
  options.wrap_window_us = wrap_window_us;
  options.wrap_retry = retry;
  test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, threads, coroutines, 7);
  test_support::Bulkload(fixture, 400, 7, 0.8, nullptr);
  try {
    fixture.cluster->Run([&](rdma::Client& client) {
      IndexOpStats stats;
      uint64_t value = 0;
      for (uint32_t i = 0; i < 3000; ++i) {
        fixture.tree->Lookup(client, 1 + 7 * ((client.location().index + i) % 400), &value, stats);
      }
      if (total != nullptr) *total += stats;
    });
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

TEST(SlowReadFailure, WindowShorterThanOneUnloadedReadIsCalledImpossible) {
  const std::string message = LookupFailure(1, 1, 1);
  EXPECT_TRUE(Mentions(message, "outlasted the 1 us version wrap window (index.wrap_window_us)"));
  EXPECT_TRUE(Mentions(message, "an unloaded READ of this 1024-byte node (index.node_bytes)"));
  EXPECT_TRUE(Mentions(message, "longer than the window itself"));
  EXPECT_TRUE(Mentions(message, "whatever the load"));
  EXPECT_EQ(message.find("overloaded"), std::string::npos) << message;
}

TEST(SlowReadFailure, LoadedServerIsCalledOverloadedWithBothTimes) {
  // 2.3 us holds one unloaded READ of a 1 KiB node (about 2.2 us between the
  // machines), but not 64 clients' READs queued at the two memory servers.
  const std::string message = LookupFailure(2.3, 8, 4);
  EXPECT_TRUE(Mentions(message, "where an unloaded READ of this 1024-byte node"));
  EXPECT_TRUE(Mentions(message, "is overloaded (queueing made its READs"));
  EXPECT_TRUE(Mentions(message, "reduce the load on it"));
}

TEST(SlowReadFailure, WithoutRetriesSlowReadsAreTrustedAndCounted) {
  // The overloaded servers above, with Sherman's default wrap_retry (none,
  // as the authors' code): every lookup finishes, and the READs that
  // outlasted the window are counted, not retried.
  IndexOpStats total;
  EXPECT_EQ(LookupFailure(2.3, 8, 4, TreeOptions::Sherman().wrap_retry, &total), "");
  EXPECT_GT(total.slow_reads_trusted, 0u);
  EXPECT_EQ(total.slow_read_retries, 0u);
}

}  // namespace
}  // namespace dmbench::indexes
