// The protocol facts the Sherman paper's analysis rests on, read from the
// substrate's per-operation stats: round trips and bytes written per
// operation for FG+ and Sherman, the effect of each technique on them.
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/rdma/client.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "indexes/blink/tests/tree_test_support.h"
#include "indexes/common/index_layout.h"

namespace dmbench::indexes {
namespace {

struct Measured {
  rdma::OpStats verbs;
  IndexOpStats index;
};

// Bulkloads 400 keys, warms client 0's cache with a lookup of test_support::kBulkloadedKey, then
// measures `operation` on client 0 alone.
template <typename Operation>
Measured MeasureAlone(const TreeOptions& options, Operation operation) {
  test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, 1, 1, 7);
  test_support::Bulkload(fixture, 400, 7, 0.8, nullptr);
  Measured measured;
  fixture.cluster->Run([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    IndexOpStats warm;
    uint64_t value = 0;
    fixture.tree->Lookup(client, test_support::kBulkloadedKey, &value, warm);
    rdma::StatsScope scope(client, measured.verbs);
    operation(*fixture.tree, client, measured.index);
  });
  return measured;
}

void UpdateExisting(BLinkTree& tree, rdma::Client& client, IndexOpStats& stats) {
  tree.Upsert(client, test_support::kBulkloadedKey, 4242, stats);
}

TEST(ProtocolFacts, LookupThatHitsTheCacheTakesOneRead) {
  for (const TreeOptions& options : {TreeOptions::FgPlus(), TreeOptions::Sherman()}) {
    const Measured measured =
        MeasureAlone(options, [](BLinkTree& tree, rdma::Client& client, IndexOpStats& stats) {
          uint64_t value = 0;
          EXPECT_TRUE(tree.Lookup(client, test_support::kBulkloadedKey, &value, stats));
          EXPECT_EQ(value, test_support::kBulkloadedKey);
        });
    EXPECT_EQ(measured.index.cache_hits, 1u);
    EXPECT_EQ(measured.verbs.round_trips, 1u);
    EXPECT_EQ(measured.verbs.reads, 1u);
    EXPECT_EQ(measured.verbs.verbs(), 1u);
  }
}

// SMART-BT (SMART §5): once a lookup has found its key, the next lookup of
// it READs the one 64-byte line its hint names, where Sherman+ READs the
// whole leaf, and neither touches the index cache.
TEST(ProtocolFacts, SpeculativeLookupReadsOneLineWhereShermanPlusReadsTheLeaf) {
  auto lookup = [](BLinkTree& tree, rdma::Client& client, IndexOpStats& stats) {
    uint64_t value = 0;
    EXPECT_TRUE(tree.Lookup(client, test_support::kBulkloadedKey, &value, stats));
    EXPECT_EQ(value, test_support::kBulkloadedKey);
  };
  const Measured plus = MeasureAlone(TreeOptions::ShermanPlus(), lookup);
  EXPECT_EQ(plus.verbs.round_trips, 1u);
  EXPECT_EQ(plus.verbs.bytes_read, TreeOptions::ShermanPlus().node_bytes);
  EXPECT_EQ(plus.index.cache_hits, 1u);
  EXPECT_EQ(plus.index.speculative_hits, 0u);

  const Measured smart = MeasureAlone(TreeOptions::SmartBt(), lookup);
  EXPECT_EQ(smart.verbs.round_trips, 1u);
  EXPECT_EQ(smart.verbs.verbs(), 1u);
  EXPECT_EQ(smart.verbs.bytes_read, 64u);
  EXPECT_EQ(smart.index.speculative_hits, 1u);
  EXPECT_EQ(smart.index.cache_hits + smart.index.cache_misses, 0u);
}

// A hint whose line no longer holds the key (here: the key was deleted)
// costs the one line, then the regular path answers; the hint is dropped, so
// the next lookup goes straight to the leaf.
TEST(ProtocolFacts, AStaleHintCostsOneLineThenTheRegularPath) {
  const TreeOptions options = TreeOptions::SmartBt();
  Measured deleted_then_lookup, second_lookup;
  test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, 1, 1, 7);
  test_support::Bulkload(fixture, 400, 7, 0.8, nullptr);
  fixture.cluster->Run([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    IndexOpStats warm;
    uint64_t value = 0;
    ASSERT_TRUE(fixture.tree->Lookup(client, test_support::kBulkloadedKey, &value, warm));
    ASSERT_TRUE(fixture.tree->Delete(client, test_support::kBulkloadedKey, warm));
    {
      rdma::StatsScope scope(client, deleted_then_lookup.verbs);
      EXPECT_FALSE(fixture.tree->Lookup(client, test_support::kBulkloadedKey, &value,
                                        deleted_then_lookup.index));
    }
    rdma::StatsScope scope(client, second_lookup.verbs);
    EXPECT_FALSE(
        fixture.tree->Lookup(client, test_support::kBulkloadedKey, &value, second_lookup.index));
  });
  EXPECT_EQ(deleted_then_lookup.index.speculative_misses, 1u);
  EXPECT_EQ(deleted_then_lookup.verbs.round_trips, 2u);
  EXPECT_EQ(deleted_then_lookup.verbs.bytes_read, 64u + options.node_bytes);
  EXPECT_EQ(second_lookup.index.speculative_misses, 0u);
  EXPECT_EQ(second_lookup.verbs.round_trips, 1u);
  EXPECT_EQ(second_lookup.verbs.bytes_read, options.node_bytes);
}

TEST(ProtocolFacts, FgPlusUpdateTakesFourRoundTripsAndWritesAWholeNode) {
  const TreeOptions options = TreeOptions::FgPlus();
  const Measured measured = MeasureAlone(options, UpdateExisting);
  // Lock (CAS on the node's header word), read the node, write it back but
  // for its lock word, unlock (WRITE of the lock word).
  EXPECT_EQ(measured.verbs.round_trips, 4u);
  EXPECT_EQ(measured.verbs.compare_and_swaps, 1u);
  EXPECT_EQ(measured.verbs.reads, 1u);
  EXPECT_EQ(measured.verbs.writes, 2u);
  EXPECT_EQ(measured.index.write_back_bytes, options.node_bytes - 8u);
  EXPECT_EQ(measured.verbs.bytes_written, options.node_bytes);
}

TEST(ProtocolFacts, ShermanUpdateTakesThreeRoundTripsAndWritesOneEntry) {
  const TreeOptions options = TreeOptions::Sherman();
  const Measured measured = MeasureAlone(options, UpdateExisting);
  // Lock (CAS on-chip), read the leaf, write the entry and unlock in one batch.
  EXPECT_EQ(measured.verbs.round_trips, 3u);
  EXPECT_EQ(measured.verbs.compare_and_swaps, 1u);
  EXPECT_EQ(measured.verbs.writes, 2u);
  // Key + value + front and rear entry versions.
  EXPECT_EQ(measured.index.write_back_bytes, 8u + 8u + 2u);
  EXPECT_EQ(measured.verbs.bytes_written, 8u + 8u + 2u + 8u);
}

TEST(ProtocolFacts, CombineOffAddsExactlyOneRoundTrip) {
  for (TreeOptions options : {TreeOptions::FgPlus(), TreeOptions::Sherman()}) {
    options.combine = true;
    const uint64_t combined = MeasureAlone(options, UpdateExisting).verbs.round_trips;
    options.combine = false;
    const uint64_t separate = MeasureAlone(options, UpdateExisting).verbs.round_trips;
    EXPECT_EQ(separate, combined + 1) << options.Describe();
  }
}

TEST(ProtocolFacts, SixteenBitLocksWriteTwoBytesToRelease) {
  TreeOptions options = TreeOptions::Sherman();
  options.masked_locks = true;
  const Measured measured = MeasureAlone(options, UpdateExisting);
  EXPECT_EQ(measured.verbs.round_trips, 3u);
  EXPECT_EQ(measured.verbs.bytes_written, 8u + 8u + 2u + 2u);
}

// Two clients of one compute server update the same key at once: the second
// queues in the local lock table and gets the global lock handed over, so
// its update needs no CAS: two round trips.
TEST(ProtocolFacts, HandedOverUpdateTakesTwoRoundTrips) {
  for (uint32_t handover : {4u, 0u}) {
    TreeOptions options = TreeOptions::Sherman();
    options.handover = handover;
    test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, 2, 1, 7);
    test_support::Bulkload(fixture, 400, 7, 0.8, nullptr);
    std::vector<Measured> measured(fixture.cluster->shape().clients);
    fixture.cluster->Run([&](rdma::Client& client) {
      if (client.location().compute_server != 0) return;
      Measured& mine = measured[client.location().index];
      IndexOpStats warm;
      uint64_t value = 0;
      fixture.tree->Lookup(client, test_support::kBulkloadedKey, &value, warm);
      rdma::StatsScope scope(client, mine.verbs);
      fixture.tree->Upsert(client, test_support::kBulkloadedKey, client.location().index,
                           mine.index);
    });
    // Whichever got there first took the lock remotely.
    const bool zero_first = measured[0].index.handovers == 0 && measured[0].verbs.round_trips == 3;
    const Measured& first = zero_first ? measured[0] : measured[1];
    const Measured& second = zero_first ? measured[1] : measured[0];
    EXPECT_EQ(first.verbs.round_trips, 3u);
    EXPECT_EQ(first.index.handovers, 0u);
    if (handover > 0) {
      EXPECT_EQ(second.index.handovers, 1u);
      EXPECT_EQ(second.verbs.round_trips, 2u);
      EXPECT_EQ(second.verbs.compare_and_swaps, 0u);
    } else {
      EXPECT_EQ(second.index.handovers, 0u);
      EXPECT_EQ(second.verbs.round_trips, 3u);
      EXPECT_GE(second.verbs.compare_and_swaps, 1u);
    }
  }
}

TEST(ProtocolFacts, SplitWithCombineWritesSiblingNodeAndUnlockInOneBatch) {
  TreeOptions options = TreeOptions::Sherman();
  options.node_bytes = 256;
  test_support::TreeFixture fixture = test_support::MakeFixture(options, 1, 1, 1, 7);
  // One full leaf: the next insert splits it, and with one memory server the
  // sibling lands on the same server as the leaf.
  std::vector<KeyValue> keys;
  for (uint64_t k = 1; k <= fixture.tree->format().leaf_capacity(); ++k)
    keys.emplace_back(k * 10, k);
  Measured measured;
  fixture.cluster->Run([&](rdma::Client& client) {
    fixture.tree->Bulkload(client, keys, 1.0);
    IndexOpStats warm;
    uint64_t value = 0;
    fixture.tree->Lookup(client, 10, &value, warm);
    rdma::StatsScope scope(client, measured.verbs);
    fixture.tree->Upsert(client, 15, 1, measured.index);
  });
  EXPECT_EQ(measured.index.splits, 1u);
  // Lock, read, [sibling + leaf + unlock], then the root grows: read the
  // root pointer, allocate a chunk... the leaf part is what the paper counts:
  // its batch carried three writes.
  EXPECT_GE(measured.verbs.writes, 3u);
  EXPECT_EQ(measured.index.write_back_bytes, 3u * options.node_bytes);  // two halves + new root
}

// As Sherman's range query (Tree::range_query): one index-cache lookup plans
// every leaf of the range, and they are read 32 at a time (its kParaFetch),
// one round trip per 32, for both presets.
TEST(ProtocolFacts, RangeQueryReadsItsCachedLeavesThirtyTwoPerRoundTrip) {
  constexpr uint64_t kKeys = 4000, kStride = 7;
  for (TreeOptions options : {TreeOptions::FgPlus(), TreeOptions::Sherman()}) {
    test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, 1, 1, 7);
    test_support::Bulkload(fixture, kKeys, kStride, 0.8, nullptr);
    fixture.cluster->Run([&](rdma::Client& client) {
      if (client.location().index != 0) return;
      // Warm the cache with every level-1 node: a lookup in every leaf.
      IndexOpStats warm;
      uint64_t value = 0;
      for (uint64_t k = 0; k < kKeys; k += 8) {
        fixture.tree->Lookup(client, 1 + kStride * k, &value, warm);
      }
      // A range of one to three groups of 32 leaves, and one of just 32.
      const uint32_t per_leaf = fixture.tree->format().leaf_capacity() * 8 / 10;
      for (const uint64_t leaves : {5ull, 32ull, 40ull, 70ull}) {
        Measured measured;
        std::vector<KeyValue> out;
        {
          rdma::StatsScope scope(client, measured.verbs);
          // Starting at a leaf's first key, `leaves` leaves hold the range.
          const uint64_t from = 1 + kStride * per_leaf * 10;
          fixture.tree->RangeQuery(client, from, from + kStride * per_leaf * leaves, 0, &out,
                                   measured.index);
        }
        SCOPED_TRACE(options.Describe() + ", " + std::to_string(leaves) + " leaves");
        EXPECT_EQ(out.size(), per_leaf * leaves);
        EXPECT_EQ(measured.verbs.reads, leaves);
        EXPECT_EQ(measured.verbs.round_trips, (leaves + 31) / 32);
        EXPECT_EQ(measured.index.cache_hits, 1u);
      }
    });
  }
}

// With wrap_retry all, a range query whose parallel leaf batch outlasts the
// 4-bit version wrap window reads the batch again in parallel (halved while
// it stays too slow), not leaf by leaf: a bounded number of round trips, and
// the same result. Retrying lookups only, the batch is trusted and counted.
TEST(ProtocolFacts, SlowRangeBatchIsReadAgainInParallel) {
  constexpr uint64_t kFrom = 1, kTo = 7 * 400;
  struct Run {
    Measured measured;
    std::vector<KeyValue> out;
    uint64_t one_read_ns = 0;
    uint64_t range_ns = 0;
  };
  auto run = [&](double wrap_window_us, WrapRetry retry = WrapRetry::kAll) {
    TreeOptions options = TreeOptions::Sherman();
    options.wrap_window_us = wrap_window_us;
    options.wrap_retry = retry;
    Run result;
    result.measured =
        MeasureAlone(options, [&](BLinkTree& tree, rdma::Client& client, IndexOpStats& stats) {
          // One node-sized READ from each memory server: the slower one.
          std::vector<uint8_t> node(tree.format().node_bytes());
          for (uint16_t server = 0; server < 2; ++server) {
            const uint64_t started = client.NowNanoseconds();
            client.Read(rdma::GlobalAddress::Host(server, IndexLayout::kRootPointerOffset),
                        node.data(), tree.format().node_bytes());
            result.one_read_ns = std::max(result.one_read_ns, client.NowNanoseconds() - started);
          }
          const uint64_t started = client.NowNanoseconds();
          tree.RangeQuery(client, kFrom, kTo, 0, &result.out, stats);
          result.range_ns = client.NowNanoseconds() - started;
        });
    return result;
  };
  // With a generous window, the ~10 leaves come in one round trip, slower
  // than one node READ alone.
  const Run generous = run(1000);
  ASSERT_EQ(generous.out.size(), 400u);
  const uint64_t reads_before_range = 2;  // the two single READs
  ASSERT_EQ(generous.measured.verbs.round_trips, reads_before_range + 1);
  ASSERT_GT(generous.range_ns, generous.one_read_ns + 200);
  // A window between the two: every full batch is too slow, single READs
  // are not.
  // The range query's time includes the CPU of its index-cache lookup, which
  // the timed batch does not.
  const auto lookup_ns =
      static_cast<uint64_t>(rdma::sim::test_support::DefaultProfile().cpu_index_cache_lookup_ns);
  const uint64_t batch_ns = generous.range_ns - lookup_ns;
  ASSERT_GT(batch_ns, generous.one_read_ns + 200);
  const Run tight = run((generous.one_read_ns + batch_ns) / 2 / 1000.0);
  EXPECT_EQ(tight.out, generous.out);
  EXPECT_GT(tight.measured.index.slow_read_retries, 0u);
  // Leaf by leaf this was 1 + 10 round trips. In parallel: the slow batch
  // of 10 and its re-issue, then halves (5, then 3 and 2 here, as the second
  // half's leaves sit less evenly on the two servers): 7.
  EXPECT_LE(tight.measured.verbs.round_trips, reads_before_range + 7);

  const Run trusted = run((generous.one_read_ns + batch_ns) / 2 / 1000.0, WrapRetry::kLookups);
  EXPECT_EQ(trusted.out, generous.out);
  EXPECT_EQ(trusted.measured.verbs.round_trips, reads_before_range + 1);
  EXPECT_EQ(trusted.measured.index.slow_read_retries, 0u);
  EXPECT_EQ(trusted.measured.index.slow_reads_trusted, 1u);
}

}  // namespace
}  // namespace dmbench::indexes
