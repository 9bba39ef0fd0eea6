// The index charges its compute-side work to the client's CPU: a checksum
// over every node FG+ checks or encodes, and every index-cache lookup.
#include <gtest/gtest.h>

#include "harness/rdma/sim/tests/sim_test_support.h"
#include "indexes/blink/tests/tree_test_support.h"

namespace dmbench::indexes {
namespace {

// Simulated ns of one lookup of test_support::kBulkloadedKey that hits client 0's cache.
uint64_t LookupNanoseconds(const TreeOptions& options, double crc_ns_per_byte,
                           double cache_lookup_ns) {
  rdma::sim::NicProfile profile = rdma::sim::test_support::DefaultProfile();
  profile.cpu_crc_ns_per_byte = crc_ns_per_byte;
  profile.cpu_index_cache_lookup_ns = cache_lookup_ns;
  test_support::TreeFixture fixture = test_support::MakeFixture(options, 2, 1, 1, 7, &profile);
  test_support::Bulkload(fixture, 400, 7, 0.8, nullptr);
  uint64_t took = 0;
  fixture.cluster->Run([&](rdma::Client& client) {
    if (client.location().index != 0) return;
    IndexOpStats stats;
    uint64_t value = 0;
    fixture.tree->Lookup(client, test_support::kBulkloadedKey, &value, stats);  // warms the cache
    const uint64_t start = client.NowNanoseconds();
    fixture.tree->Lookup(client, test_support::kBulkloadedKey, &value, stats);
    took = client.NowNanoseconds() - start;
  });
  return took;
}

TEST(CpuCharges, FgPlusPaysForTheChecksumOfEveryNodeItReads) {
  const TreeOptions options = TreeOptions::FgPlus();
  const uint64_t base = LookupNanoseconds(options, 0, 0);
  // One node read, checked over all but its 8-byte trailer.
  EXPECT_EQ(LookupNanoseconds(options, 1, 0) - base, options.node_bytes - 8);
  EXPECT_EQ(LookupNanoseconds(options, 0, 300) - base, 300u);
}

TEST(CpuCharges, ShermanPaysNoChecksumButTheCacheLookup) {
  const TreeOptions options = TreeOptions::Sherman();
  const uint64_t base = LookupNanoseconds(options, 0, 0);
  EXPECT_EQ(LookupNanoseconds(options, 1, 0), base);
  EXPECT_EQ(LookupNanoseconds(options, 0, 300) - base, 300u);
}

}  // namespace
}  // namespace dmbench::indexes
