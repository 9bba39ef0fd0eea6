// A lock that stays taken far longer than any holder keeps it is lost, not
// contended: Acquire gives up after LockOptions::wait_limit_ns with the
// holder's name instead of spinning for ever, and a lock that is merely
// contended is still waited for.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness/util/tests/mentions.h"
#include "indexes/blink/tests/tree_test_support.h"
#include "indexes/common/global_lock_table.h"
#include "indexes/common/index_layout.h"
#include "indexes/index_factory.h"

namespace dmbench::indexes {
namespace {

constexpr rdma::GlobalAddress kNode = rdma::GlobalAddress::Host(0, 4 << 20);

// Compute server 1 takes the node's lock and gives it back after `hold_ns`
// (never when 0); compute server 0 then waits for it with a limit of
// `limit_ns`. Returns the waiter's error, or "acquired after N failed CAS".
std::string WaitForLock(uint64_t hold_ns, uint64_t limit_ns, LockPlacement placement, bool masked) {
  TreeOptions options = TreeOptions::FgPlus();
  test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, 1, 1, 7);
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

// Where a failing CAS may store its word back (Soft-RoCE's responder), a
// WRITE release landing between a waiter's CAS reading the taken lock and
// storing it back is lost, and the lock stays taken for ever: there the
// locks are released by FAA, an atomic the fabric serializes with the CASes.
TEST(GlobalLockTable, ReleasesByFaaWhereAFailingCasMayOverwriteAWrite) {
  constexpr uint64_t kUpserts = 224;
  uint64_t fetch_and_adds[2] = {};  // by `overwrites`; chunk allocation takes a few
  for (const bool overwrites : {false, true}) {
    const TreeOptions options = TreeOptions::Sherman();
    test_support::TreeFixture fixture = test_support::MakeFixture(options, 1, 2, 2, 5);
    rdma::ClusterShape shape = fixture.cluster->shape();
    shape.failed_cas_may_overwrite_writes = overwrites;
    const LockOptions locks = ForFabric(options.locks(), shape);
    EXPECT_EQ(locks.faa_release, overwrites);
    const GlobalLockTable table(locks);
    fixture.cluster->Run([&](rdma::Client& client) {
      if (client.location().index != 0) return;
      EXPECT_EQ(table.ReleaseRequest(table.For(kNode), client).verb,
                overwrites ? rdma::Verb::kFetchAndAdd : rdma::Verb::kWrite);
    });

    // The tree releases the same way, and every lock is free afterwards.
    const std::unique_ptr<BLinkTree> tree = MakeBLinkTree(options, shape, 5);
    test_support::Bulkload(*fixture.cluster, *tree, 300, 3, 0.8, nullptr);
    rdma::OpStats verbs;
    fixture.cluster->Run([&](rdma::Client& client) {
      IndexOpStats stats;
      rdma::StatsScope scope(client, verbs);
      for (uint64_t key = 2 + client.location().index; key < 2 + kUpserts; key += 4) {
        tree->Upsert(client, key, key, stats);
      }
    });
    fetch_and_adds[overwrites] = verbs.fetch_and_adds;
    fixture.cluster->Run([&](rdma::Client& client) {
      if (client.location().index != 0) return;
      std::vector<uint64_t> words(IndexLayout::kLockTableBytes / 8, 1);
      client.Read(rdma::GlobalAddress::OnChip(0, IndexLayout::kOnChipLockTableOffset), words.data(),
                  IndexLayout::kLockTableBytes);
      EXPECT_EQ(std::count(words.begin(), words.end(), 0u), static_cast<long>(words.size()))
          << (overwrites ? "FAA" : "WRITE") << " releases left locks taken";
    });
  }
  // A global lock passes through at most 1 + handover upserts before its
  // release.
  EXPECT_GE(fetch_and_adds[1],
            fetch_and_adds[0] + kUpserts / (TreeOptions::Sherman().handover + 1));
  EXPECT_LT(fetch_and_adds[0], 10u);
}

}  // namespace
}  // namespace dmbench::indexes
