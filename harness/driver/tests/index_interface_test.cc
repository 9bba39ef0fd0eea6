// The driver and the consistency checker use an index only through
// indexes/index.h: a test-only index of a few lines runs end to end, and a
// wrong one is caught.
#include <gtest/gtest.h>

#include <memory>

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/tests/driver_test_support.h"
#include "harness/driver/tests/locked_array_index.h"

namespace dmbench::driver {
namespace {

RunConfig Verified(const std::string& mix) {
  RunConfig config = test_support::SmallRun("sherman", mix);
  config.workload.keys = 2000;
  config.verify = true;
  // Every operation takes the index's one lock: a window long enough that
  // well over 20 of them complete.
  config.measure_ms = 2;
  return config;
}

std::unique_ptr<indexes::Index> LockedArray(const RunConfig&, const rdma::ClusterShape&) {
  return std::make_unique<test_support::LockedArrayIndex>();
}

TEST(IndexInterface, ATestOnlyIndexRunsThroughTheDriverAndTheChecker) {
  for (const std::string mix : {"write-intensive", "range-write"}) {
    const BenchmarkOutcome outcome = RunBenchmark(Verified(mix), nullptr, LockedArray);
    EXPECT_TRUE(outcome.verified_ok) << mix << ": " << outcome.result["verify"].dump();
    EXPECT_GT(outcome.result["operations"]["overall"]["count"].get<uint64_t>(), 20u) << mix;
    EXPECT_GT(outcome.result["verify"]["operations_checked"].get<uint64_t>(), 20u) << mix;
  }
}

// Returns a value one off for every key it finds: the checker must say so.
class OffByOneIndex final : public indexes::Index {
 public:
  using Index::Bulkload;
  void Bulkload(rdma::Client& client, std::shared_ptr<const indexes::BulkloadSource> source,
                double fill_factor) override {
    inner_.Bulkload(client, std::move(source), fill_factor);
  }
  bool Lookup(rdma::Client& client, uint64_t key, uint64_t* value,
              indexes::IndexOpStats& stats) override {
    const bool found = inner_.Lookup(client, key, value, stats);
    if (found) ++*value;
    return found;
  }
  void Upsert(rdma::Client& client, uint64_t key, uint64_t value,
              indexes::IndexOpStats& stats) override {
    inner_.Upsert(client, key, value, stats);
  }
  bool Delete(rdma::Client& client, uint64_t key, indexes::IndexOpStats& stats) override {
    return inner_.Delete(client, key, stats);
  }
  void RangeQuery(rdma::Client& client, uint64_t from, uint64_t to, size_t limit,
                  std::vector<indexes::KeyValue>* out, indexes::IndexOpStats& stats) override {
    inner_.RangeQuery(client, from, to, limit, out, stats);
  }

 private:
  test_support::LockedArrayIndex inner_;
};

TEST(IndexInterface, TheCheckerCatchesAWrongIndexThroughTheInterface) {
  const BenchmarkOutcome outcome = RunBenchmark(Verified("write-intensive"), nullptr,
                                                [](const RunConfig&, const rdma::ClusterShape&) {
                                                  return std::make_unique<OffByOneIndex>();
                                                });
  EXPECT_FALSE(outcome.verified_ok);
  EXPECT_GT(outcome.result["verify"]["violations"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace dmbench::driver
