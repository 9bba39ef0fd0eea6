#include "harness/stats/log_linear_histogram.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace dmbench {

uint64_t LogLinearHistogram::LowOf(int index) {
  if (index < kSubBuckets) return static_cast<uint64_t>(index);
  const int relative = index - kSubBuckets;
  const int top_bit = relative / (kSubBuckets / 2) + kSubBits;
  const int sub = relative % (kSubBuckets / 2);
  const int shift = top_bit - (kSubBits - 1);
  return static_cast<uint64_t>(kSubBuckets / 2 + sub) << shift;
}

uint64_t LogLinearHistogram::HighOf(int index) {
  if (index + 1 >= kBucketCount) return ~uint64_t{0};
  return LowOf(index + 1) - 1;
}

void LogLinearHistogram::Merge(const LogLinearHistogram& other) {
  for (int i = 0; i < kBucketCount; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
}

uint64_t LogLinearHistogram::Percentile(double percent) const {
  if (count_ == 0) return 0;
  const double clamped = std::clamp(percent, 0.0, 100.0);
  // Rank of the value sought, 1-based: ceil(p% of n), at least 1.
  uint64_t rank = static_cast<uint64_t>(clamped / 100.0 * static_cast<double>(count_) + 0.9999999);
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (int i = 0; i < kBucketCount; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      const uint64_t low = LowOf(i);
      const uint64_t middle = low + (HighOf(i) - low) / 2;
      return std::clamp(middle, min_, max_);
    }
  }
  return max_;
}

std::vector<LogLinearHistogram::Bucket> LogLinearHistogram::Buckets() const {
  std::vector<Bucket> buckets;
  for (int i = 0; i < kBucketCount; ++i) {
    if (counts_[i] != 0) buckets.push_back({LowOf(i), HighOf(i), counts_[i]});
  }
  return buckets;
}

LogLinearHistogram LogLinearHistogram::FromBuckets(std::span<const Bucket> buckets, uint64_t min,
                                                   uint64_t max, unsigned __int128 sum) {
  LogLinearHistogram histogram;
  int first = kBucketCount;
  int last = -1;
  for (const Bucket& bucket : buckets) {
    if (bucket.low > bucket.high) {
      throw std::invalid_argument("bucket [" + std::to_string(bucket.low) + ", " +
                                  std::to_string(bucket.high) + "] has low > high");
    }
    if (bucket.count == 0) continue;
    if (histogram.count_ + bucket.count < histogram.count_) {
      throw std::invalid_argument("bucket counts overflow 64 bits");
    }
    const int index = IndexOf(bucket.low + (bucket.high - bucket.low) / 2);
    histogram.counts_[index] += bucket.count;
    histogram.count_ += bucket.count;
    first = std::min(first, index);
    last = std::max(last, index);
  }
  if (histogram.count_ == 0) return histogram;
  // Percentile() clamps to [min, max], so values outside their buckets would
  // silently shift every percentile; reject them instead.
  if (IndexOf(min) != first || IndexOf(max) != last) {
    throw std::invalid_argument("min " + std::to_string(min) + " and max " + std::to_string(max) +
                                " must lie in the lowest bucket [" + std::to_string(LowOf(first)) +
                                ", " + std::to_string(HighOf(first)) + "] and the highest [" +
                                std::to_string(LowOf(last)) + ", " + std::to_string(HighOf(last)) +
                                "]");
  }
  histogram.min_ = min;
  histogram.max_ = max;
  histogram.sum_ = sum;
  return histogram;
}

}  // namespace dmbench
