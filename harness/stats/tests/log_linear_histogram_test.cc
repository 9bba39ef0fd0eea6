#include "harness/stats/log_linear_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

}  // namespace
}  // namespace dmbench
