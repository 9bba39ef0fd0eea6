// RunBenchmark tells a MeasuredRunObserver when the run of the warm-up and
// window starts and ends (what dmbench run --perf-control switches perf
// record on): after the bulkload, before the first operation, after the
// last, and without changing the result.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/tests/driver_test_support.h"
#include "harness/driver/tests/locked_array_index.h"

namespace dmbench::driver {
namespace {

// What happened, in order, with repeats of the same step folded into one.
class StepLog {
 public:
  void Add(const std::string& step) {
    if (steps_.empty() || steps_.back() != step) steps_.push_back(step);
  }
  const std::vector<std::string>& steps() const { return steps_; }

 private:
  std::vector<std::string> steps_;
};

// The locked array of the driver tests, logging its bulkload and operations.
class LoggedIndex final : public indexes::Index {
 public:
  explicit LoggedIndex(StepLog& log) : log_(log) {}
  using Index::Bulkload;
  void Bulkload(rdma::Client& client, std::shared_ptr<const indexes::BulkloadSource> source,
                double fill_factor) override {
    log_.Add("bulkload");
    inner_.Bulkload(client, std::move(source), fill_factor);
  }
  bool Lookup(rdma::Client& client, uint64_t key, uint64_t* value,
              indexes::IndexOpStats& stats) override {
    log_.Add("operation");
    return inner_.Lookup(client, key, value, stats);
  }
  void Upsert(rdma::Client& client, uint64_t key, uint64_t value,
              indexes::IndexOpStats& stats) override {
    log_.Add("operation");
    inner_.Upsert(client, key, value, stats);
  }
  bool Delete(rdma::Client& client, uint64_t key, indexes::IndexOpStats& stats) override {
    log_.Add("operation");
    return inner_.Delete(client, key, stats);
  }
  void RangeQuery(rdma::Client& client, uint64_t from, uint64_t to, size_t limit,
                  std::vector<indexes::KeyValue>* out, indexes::IndexOpStats& stats) override {
    log_.Add("operation");
    inner_.RangeQuery(client, from, to, limit, out, stats);
  }

 private:
  StepLog& log_;
  test_support::LockedArrayIndex inner_;
};

class LoggingObserver final : public MeasuredRunObserver {
 public:
  explicit LoggingObserver(StepLog& log) : log_(log) {}
  void MeasuredRunStarts() override { log_.Add("starts"); }
  void MeasuredRunEnded() override { log_.Add("ended"); }

 private:
  StepLog& log_;
};

TEST(MeasuredRunObserver, BracketsEveryOperationAndNothingBeforeThem) {
  const RunConfig config = test_support::SmallRun("sherman", "write-intensive");
  StepLog log;
  const auto make_index = [&](const RunConfig&, const rdma::ClusterShape&) {
    return std::make_unique<LoggedIndex>(log);
  };
  LoggingObserver observer(log);
  const nlohmann::json observed = RunBenchmark(config, nullptr, make_index, &observer).result;
  EXPECT_EQ(log.steps(), (std::vector<std::string>{"bulkload", "starts", "operation", "ended"}));

  StepLog unobserved_log;
  const auto make_unobserved = [&](const RunConfig&, const rdma::ClusterShape&) {
    return std::make_unique<LoggedIndex>(unobserved_log);
  };
  EXPECT_EQ(test_support::WithoutWallClock(observed),
            test_support::WithoutWallClock(RunBenchmark(config, nullptr, make_unobserved).result));
}

}  // namespace
}  // namespace dmbench::driver
