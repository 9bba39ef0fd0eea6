// A lock that stays taken far longer than any holder keeps it is lost, not
// contended: Acquire gives up after LockOptions::wait_limit_ns with the
// holder's name instead of spinning for ever, and a lock that is merely
// contended is still waited for.
#include <gtest/gtest.h>

#include <string>

#include "harness/util/tests/mentions.h"
#include "indexes/blink/tests/tree_test_support.h"
#include "indexes/common/global_lock_table.h"

namespace dmbench::indexes {
namespace {

constexpr rdma::GlobalAddress kNode = rdma::GlobalAddress::Host(0, 4 << 20);

// Compute server 1 takes the node's lock and gives it back after `hold_ns`
// (never when 0); compute server 0 then waits for it with a limit of
// `limit_ns`. Returns the waiter's error, or "acquired after N failed CAS".
std::string WaitForLock(uint64_t hold_ns, uint64_t limit_ns, LockPlacement placement, bool masked) {
  TreeOptions options = TreeOptions::FgPlus();
  testing::TreeFixture fixture = testing::MakeFixture(options, 2, 1, 1, 7);
  LockOptions lock_options = options.locks();
  lock_options.placement = placement;
  lock_options.on_chip = false;
  lock_options.masked = masked;
  lock_options.wait_limit_ns = limit_ns;
  const GlobalLockTable table(lock_options);
  const GlobalLockTable::Lock lock = table.For(kNode);
  std::string outcome;
  try {
    fixture.cluster->Run([&](rdma::Client& client) {
      if (client.location().compute_server == 1) {
        EXPECT_EQ(table.Acquire(client, lock), 0u);
        if (hold_ns == 0) return;
        client.ChargeCpu(hold_ns);
        rdma::WorkRequest release = table.ReleaseRequest(lock, client);
        client.Execute(std::span<rdma::WorkRequest>(&release, 1));
        return;
      }
      client.ChargeCpu(1000);  // let the holder take it first
      outcome = "acquired after " + std::to_string(table.Acquire(client, lock)) + " failed CAS";
    });
  } catch (const LockLostError& error) {
    outcome = error.what();
  }
  return outcome;
}

TEST(GlobalLockTable, ALockNeverReleasedEndsTheWaitWithTheHoldersName) {
  for (bool masked : {false, true}) {
    const std::string message = WaitForLock(0, 2'000'000, LockPlacement::kTable, masked);
    EXPECT_TRUE(Mentions(message, "stayed taken by compute server 1 for 2 ms")) << message;
    EXPECT_TRUE(Mentions(message, "lost, not contended")) << message;
  }
  const std::string in_node = WaitForLock(0, 2'000'000, LockPlacement::kNode, false);
  EXPECT_TRUE(Mentions(in_node, "lock word " + kNode.ToString())) << in_node;
}

TEST(GlobalLockTable, AContendedLockIsWaitedForWithinTheLimit) {
  const std::string outcome = WaitForLock(300'000, 2'000'000, LockPlacement::kTable, false);
  ASSERT_EQ(outcome.rfind("acquired after ", 0), 0u) << outcome;
  EXPECT_NE(outcome, "acquired after 0 failed CAS") << "the holder kept it for 300 us";
  EXPECT_TRUE(
      Mentions(WaitForLock(300'000, 100'000, LockPlacement::kTable, false), "lost, not contended"));
}

}  // namespace
}  // namespace dmbench::indexes
