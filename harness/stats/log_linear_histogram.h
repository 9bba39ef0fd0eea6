// A histogram of non-negative integers (latencies in ns, round trips, bytes)
// with bounded relative error and constant memory, in the manner of
// HdrHistogram: values below 2^kSubBits are exact; above, each power of two
// is split into 2^kSubBits linear sub-buckets, so a reported percentile is
// within 2^-kSubBits (0.8%) of the true value. Merging is exact.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace dmbench {

class LogLinearHistogram {
 public:
  static constexpr int kSubBits = 7;

  // Inline: a simulated operation records five to seven values, and as
  // calls they took a hundred instructions of it.
  void Record(uint64_t value, uint64_t count = 1) {
    if (count == 0) return;
    counts_[IndexOf(value)] += count;
    count_ += count;
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
    sum_ += static_cast<unsigned __int128>(value) * count;
  }
  void Merge(const LogLinearHistogram& other);

  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ == 0 ? 0 : static_cast<double>(sum_) / count_; }
  // The smallest recorded bucket value v such that at least `percent`% of
  // the values are <= v, reported as the bucket's midpoint clamped to
  // [min, max]. 0 for an empty histogram.
  uint64_t Percentile(double percent) const;

  // Non-empty buckets as (lowest value, highest value, count), ascending.
  struct Bucket {
    uint64_t low;
    uint64_t high;
    uint64_t count;
  };
  std::vector<Bucket> Buckets() const;

  // Rebuilds a histogram from what another reported: its Buckets(), min(),
  // max() and the sum of its values, so that histograms saved by separate
  // processes merge as exactly as if they had been recorded in one. Each
  // bucket is placed by its midpoint, not by `low`, so boundaries that went
  // through a floating-point scale and back (and lost a few ulps) still land
  // in the bucket they came from. Throws std::invalid_argument when a bucket
  // has low > high, the counts overflow, or min and max do not fall in the
  // first and last non-empty buckets.
  static LogLinearHistogram FromBuckets(std::span<const Bucket> buckets, uint64_t min, uint64_t max,
                                        unsigned __int128 sum);

 private:
  static constexpr int kSubBuckets = 1 << kSubBits;
  // Exact values [0, kSubBuckets), then (64 - kSubBits) powers of two.
  static constexpr int kBucketCount = kSubBuckets + (64 - kSubBits) * (kSubBuckets / 2);

  // Values with highest set bit b >= kSubBits share the top kSubBits bits:
  // the leading 1 and kSubBits - 1 bits below it select one of
  // kSubBuckets / 2 sub-buckets of the power of two [2^b, 2^(b+1)).
  static int IndexOf(uint64_t value) {
    if (value < kSubBuckets) return static_cast<int>(value);
    const int top_bit = 63 - std::countl_zero(value);
    const int shift = top_bit - (kSubBits - 1);
    const int sub = static_cast<int>(value >> shift) - kSubBuckets / 2;
    return kSubBuckets + (top_bit - kSubBits) * (kSubBuckets / 2) + sub;
  }
  static uint64_t LowOf(int index);
  static uint64_t HighOf(int index);

  std::vector<uint64_t> counts_ = std::vector<uint64_t>(kBucketCount, 0);
  uint64_t count_ = 0;
  uint64_t min_ = ~uint64_t{0};
  uint64_t max_ = 0;
  unsigned __int128 sum_ = 0;
};

}  // namespace dmbench
