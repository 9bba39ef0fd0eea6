#include "harness/stats/log_linear_histogram.h"

#include <algorithm>
#include <bit>

namespace dmbench {

// Values with highest set bit b >= kSubBits share the top kSubBits bits:
// the leading 1 and kSubBits - 1 bits below it select one of kSubBuckets / 2
// sub-buckets of the power of two [2^b, 2^(b+1)).
int LogLinearHistogram::IndexOf(uint64_t value) {
  if (value < kSubBuckets) return static_cast<int>(value);
  const int top_bit = 63 - std::countl_zero(value);
  const int shift = top_bit - (kSubBits - 1);
  const int sub = static_cast<int>(value >> shift) - kSubBuckets / 2;
  return kSubBuckets + (top_bit - kSubBits) * (kSubBuckets / 2) + sub;
}

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

void LogLinearHistogram::Record(uint64_t value, uint64_t count) {
  if (count == 0) return;
  counts_[IndexOf(value)] += count;
  count_ += count;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  sum_ += static_cast<unsigned __int128>(value) * count;
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

}  // namespace dmbench
