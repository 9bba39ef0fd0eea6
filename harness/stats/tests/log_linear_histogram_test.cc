#include "harness/stats/log_linear_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "harness/util/random.h"

namespace dmbench {
namespace {

TEST(LogLinearHistogram, SmallValuesAreExact) {
  LogLinearHistogram histogram;
  for (uint64_t v = 1; v <= 100; ++v) histogram.Record(v);
  EXPECT_EQ(histogram.Percentile(50), 50u);
  EXPECT_EQ(histogram.Percentile(99), 99u);
  EXPECT_EQ(histogram.Percentile(100), 100u);
  EXPECT_EQ(histogram.Percentile(0), 1u);
  EXPECT_EQ(histogram.min(), 1u);
  EXPECT_EQ(histogram.max(), 100u);
  EXPECT_DOUBLE_EQ(histogram.mean(), 50.5);
}

// Against exact order statistics of a heavy-tailed sample, every percentile
// the results report is within the histogram's stated relative error.
TEST(LogLinearHistogram, PercentilesWithinRelativeErrorOfExact) {
  Random random(42);
  std::vector<uint64_t> values;
  LogLinearHistogram histogram;
  for (int i = 0; i < 200000; ++i) {
    // Log-uniform over [1 us, 10 ms] in ns: spans many powers of two.
    const auto value = static_cast<uint64_t>(1000.0 * std::pow(10000.0, random.NextDouble()));
    values.push_back(value);
    histogram.Record(value);
  }
  std::sort(values.begin(), values.end());
  for (double p : {1.0, 50.0, 90.0, 99.0, 99.9}) {
    const uint64_t exact = values[static_cast<size_t>(std::ceil(p / 100 * values.size())) - 1];
    const double error = std::abs(static_cast<double>(histogram.Percentile(p)) - exact) / exact;
    EXPECT_LT(error, 1.0 / (1 << LogLinearHistogram::kSubBits)) << "p" << p;
  }
}

TEST(LogLinearHistogram, BucketsCoverEveryValueOnce) {
  LogLinearHistogram histogram;
  const uint64_t probes[] = {0, 1, 127, 128, 129, 255, 256, 1000, 123456789, ~uint64_t{0}};
  for (uint64_t v : probes) histogram.Record(v);
  uint64_t total = 0;
  uint64_t previous_high = 0;
  bool first = true;
  for (const auto& bucket : histogram.Buckets()) {
    EXPECT_LE(bucket.low, bucket.high);
    if (!first) {
      EXPECT_GT(bucket.low, previous_high);
    }
    previous_high = bucket.high;
    first = false;
    total += bucket.count;
  }
  EXPECT_EQ(total, std::size(probes));
}

TEST(LogLinearHistogram, MergeEqualsRecordingEverything) {
  LogLinearHistogram a, b, all;
  for (uint64_t v = 0; v < 5000; v += 7) {
    (v % 2 ? a : b).Record(v * 13);
    all.Record(v * 13);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.Percentile(99), all.Percentile(99));
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_DOUBLE_EQ(a.mean(), all.mean());
}

TEST(LogLinearHistogram, EmptyReportsZero) {
  LogLinearHistogram histogram;
  EXPECT_EQ(histogram.Percentile(99), 0u);
  EXPECT_EQ(histogram.count(), 0u);
  EXPECT_TRUE(histogram.Buckets().empty());
}

// Every query of a rebuilt histogram, and of merges with it, must equal
// the original's; otherwise a merge of saved results differs from one run.
TEST(LogLinearHistogram, FromBucketsRebuildsEveryQuery) {
  LogLinearHistogram original, other;
  unsigned __int128 sum = 0;
  for (uint64_t v : {uint64_t{3}, uint64_t{127}, uint64_t{128}, uint64_t{5000}, uint64_t{123456789},
                     ~uint64_t{0}}) {
    original.Record(v, 3);
    sum += static_cast<unsigned __int128>(v) * 3;
  }
  other.Record(40);
  const std::vector<LogLinearHistogram::Bucket> buckets = original.Buckets();
  LogLinearHistogram rebuilt =
      LogLinearHistogram::FromBuckets(buckets, original.min(), original.max(), sum);
  EXPECT_EQ(rebuilt.count(), original.count());
  EXPECT_EQ(rebuilt.min(), original.min());
  EXPECT_EQ(rebuilt.max(), original.max());
  EXPECT_DOUBLE_EQ(rebuilt.mean(), original.mean());
  for (double p : {0.0, 10.0, 50.0, 90.0, 99.0, 100.0}) {
    EXPECT_EQ(rebuilt.Percentile(p), original.Percentile(p)) << "p" << p;
  }
  rebuilt.Merge(other);
  original.Merge(other);
  EXPECT_EQ(rebuilt.Percentile(10), original.Percentile(10));
  EXPECT_EQ(rebuilt.min(), original.min());
  EXPECT_EQ(rebuilt.Buckets().size(), original.Buckets().size());
}

TEST(LogLinearHistogram, FromBucketsToleratesBoundariesOffByRounding) {
  LogLinearHistogram original;
  original.Record(1000000);
  LogLinearHistogram::Bucket bucket = original.Buckets().front();
  bucket.low -= 1;  // as if scaled to microseconds and back with a rounding error
  bucket.high += 1;
  const LogLinearHistogram rebuilt =
      LogLinearHistogram::FromBuckets({&bucket, 1}, 1000000, 1000000, 1000000);
  ASSERT_EQ(rebuilt.Buckets().size(), 1u);
  EXPECT_EQ(rebuilt.Buckets().front().low, original.Buckets().front().low);
  EXPECT_EQ(rebuilt.Percentile(50), 1000000u);
}

TEST(LogLinearHistogram, FromBucketsRejectsInconsistentInput) {
  const LogLinearHistogram::Bucket bucket{10, 10, 2};
  EXPECT_THROW(LogLinearHistogram::FromBuckets({&bucket, 1}, 9, 10, 20), std::invalid_argument);
  EXPECT_THROW(LogLinearHistogram::FromBuckets({&bucket, 1}, 10, 11, 20), std::invalid_argument);
  const LogLinearHistogram::Bucket inverted{10, 9, 2};
  EXPECT_THROW(LogLinearHistogram::FromBuckets({&inverted, 1}, 10, 10, 20), std::invalid_argument);
  EXPECT_EQ(LogLinearHistogram::FromBuckets({}, 0, 0, 0).count(), 0u);
}

}  // namespace
}  // namespace dmbench
