// The sim's DMA tearing against each consistency scheme. Writers update
// existing keys while readers look them up, so READs overlap WRITEs of the
// same leaves all the time. Wide values make an entry span several
// cachelines; their bytes beyond the first 8 are a pattern of the value, so
// an entry torn in a way the scheme missed is visible (torn_entries_returned).
#include <gtest/gtest.h>

#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/util/random.h"
#include "indexes/blink/tests/tree_test_support.h"

namespace dmbench::indexes {
namespace {

struct TearingRun {
  IndexOpStats stats;
  uint64_t torn_reads = 0;  // READs the sim tore
  ConsistencyReport report;
};

TearingRun RunContended(TreeOptions options, rdma::sim::DmaOrder order, uint64_t seed,
                        uint64_t keys = 24) {
  rdma::sim::NicProfile profile = rdma::sim::test_support::DefaultProfile();
  profile.dma_read_order = order;
  options.cache_bytes = 1 << 20;
  test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, 2, 8, seed, &profile);
  ConsistencyChecker checker;
  test_support::Bulkload(fixture, keys, 1, 0.8, &checker);
  std::vector<IndexOpStats> per_client(fixture.cluster->shape().clients);
  fixture.cluster->Run([&](rdma::Client& client) {
    const uint32_t id = client.location().index;
    Random random(DeriveSeed(seed, id));
    const bool writer = id % 2 == 0;
    for (uint32_t op = 0; op < 400; ++op) {
      const uint64_t key = 1 + random.Uniform(keys);
      const uint64_t invoke = client.NowNanoseconds();
      if (writer) {
        const uint64_t value = (uint64_t{id + 1} << 32) | op;
        fixture.tree->Upsert(client, key, value, per_client[id]);
        checker.RecordUpsert(id, key, value, invoke, client.NowNanoseconds());
      } else {
        uint64_t value = 0;
        const bool found = fixture.tree->Lookup(client, key, &value, per_client[id]);
        checker.RecordLookup(id, key, found ? std::optional(value) : std::nullopt, invoke,
                             client.NowNanoseconds());
      }
    }
  });
  TearingRun run;
  for (const IndexOpStats& stats : per_client) run.stats += stats;
  run.torn_reads = fixture.cluster->torn_reads();
  run.report = checker.Check();
  return run;
}

TreeOptions Wide(TreeOptions options) {
  // 200-byte values: a two-level entry is 210 bytes over four cachelines, and
  // an update changes all of it but the key (a torn middle is then visible).
  options.value_bytes = 200;
  options.node_bytes = 4096;
  return options;
}

TEST(TornReads, FgPlusCrcCatchesEveryTornRead) {
  for (auto order : {rdma::sim::DmaOrder::kAscending, rdma::sim::DmaOrder::kRandom}) {
    const TearingRun run = RunContended(Wide(TreeOptions::FgPlus()), order, 3, 4);
    EXPECT_GT(run.torn_reads, 0u) << "the sim tore no read: the test proves nothing";
    EXPECT_GT(run.stats.read_retries, 0u);
    EXPECT_EQ(run.stats.torn_entries_returned, 0u);
    EXPECT_TRUE(run.report.ok()) << test_support::Describe(run.report);
  }
}

TEST(TornReads, TwoLevelVersionsCatchTornReadsUnderAscendingOrder) {
  // A torn READ need not tear the entry a lookup wants, so one seed may
  // retry nothing; over the seeds some must, or the test proves nothing.
  uint64_t retries = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const TearingRun run =
        RunContended(Wide(TreeOptions::Sherman()), rdma::sim::DmaOrder::kAscending, seed, 4);
    EXPECT_GT(run.torn_reads, 0u) << "the sim tore no read: the test proves nothing";
    EXPECT_EQ(run.stats.torn_entries_returned, 0u) << "seed " << seed;
    EXPECT_TRUE(run.report.ok()) << test_support::Describe(run.report);
    retries += run.stats.read_retries;
  }
  EXPECT_GT(retries, 0u);
}

// SMART (ASPLOS'24 §5): NICs need not DMA in address order; a READ can then
// see an entry's front and rear versions new and its middle old.
TEST(TornReads, TwoLevelVersionsReturnTornEntriesUnderRandomOrder) {
  const TearingRun run =
      RunContended(Wide(TreeOptions::Sherman()), rdma::sim::DmaOrder::kRandom, 3, 4);
  EXPECT_GT(run.stats.torn_entries_returned, 0u);
}

TEST(TornReads, CachelineVersionsNeverReturnTornEntriesUnderRandomOrder) {
  TreeOptions options = Wide(TreeOptions::Sherman());
  options.consistency = Consistency::kCacheline;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const TearingRun run = RunContended(options, rdma::sim::DmaOrder::kRandom, seed, 4);
    EXPECT_GT(run.torn_reads, 0u) << "the sim tore no read: the test proves nothing";
    EXPECT_GT(run.stats.read_retries, 0u);
    EXPECT_EQ(run.stats.torn_entries_returned, 0u) << "seed " << seed;
    EXPECT_TRUE(run.report.ok()) << test_support::Describe(run.report);
  }
}

// Narrow entries fit one cacheline: the cacheline scheme then writes single
// entries, and each is atomic by itself.
TEST(TornReads, CachelineVersionsWithLineSizedEntriesUnderRandomOrder) {
  TreeOptions options = TreeOptions::Sherman();
  options.consistency = Consistency::kCacheline;
  const TearingRun run = RunContended(options, rdma::sim::DmaOrder::kRandom, 4);
  EXPECT_EQ(run.stats.torn_entries_returned, 0u);
  EXPECT_TRUE(run.report.ok()) << test_support::Describe(run.report);
}

}  // namespace
}  // namespace dmbench::indexes
