#include "workloads/zipfian_generator.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/util/random.h"

namespace dmbench::workloads {
namespace {

constexpr int kTopRanks = 10;
constexpr double kRelativeTolerance = 0.02;
// A tolerance this many standard deviations wide leaves no realistic room for a false failure,
// yet a generator that is off by 2% for any top rank fails.
constexpr double kMinStandardDeviations = 5.0;

struct FrequencyCase {
  uint64_t items;
  double theta;
  // Chosen so that 2% relative is >= 5 standard deviations of the empirical frequency of rank 9,
  // the least likely rank checked (sd of p-hat = sqrt(p(1-p)/N)): n = 1e4, theta 0.9: p9 = 0.0083,
  // N = 1e7 -> 5.8 sd; n = 1e6, theta 0.99: p9 = 0.0069, N = 1e7 -> 5.3 sd; n = 1e6, theta 0.9:
  // p9 = 0.0043, N = 1.6e7 -> 5.3 sd. (The 2e6 samples one might guess give only 1.9-2.9 sd.)
  // The test asserts this, so a smaller N cannot silently weaken it.
  uint64_t samples;
  const char* name;
};

// Keeps test names and failure messages readable instead of a byte dump of the struct.
void PrintTo(const FrequencyCase& param, std::ostream* out) { *out << param.name; }

class ZipfianFrequencyTest : public ::testing::TestWithParam<FrequencyCase> {};

// Ranks 0 and 1 must follow the ideal Zipf law; every top rank must follow the distribution the
// algorithm is known to draw (see zipfian_generator.h for why those differ from rank 2 on).
TEST_P(ZipfianFrequencyTest, TopRanksMatchTheirProbabilities) {
  const FrequencyCase& param = GetParam();
  const ZipfianGenerator zipf(param.items, param.theta);
  Random rng(DeriveSeed(2024, param.items));
  std::array<uint64_t, kTopRanks> counts{};
  for (uint64_t i = 0; i < param.samples; ++i) {
    const uint64_t rank = zipf.Next(rng);
    if (rank < kTopRanks) ++counts[rank];
  }
  const auto samples = static_cast<double>(param.samples);
  for (uint64_t rank = 0; rank < kTopRanks; ++rank) {
    const double frequency = static_cast<double>(counts[rank]) / samples;
    const double expected = zipf.SamplingProbability(rank);
    const double standard_deviation = std::sqrt(expected * (1.0 - expected) / samples);
    ASSERT_GE(kRelativeTolerance * expected, kMinStandardDeviations * standard_deviation)
        << "too few samples for rank " << rank;
    EXPECT_NEAR(frequency, expected, kRelativeTolerance * expected) << "rank " << rank;
    if (rank < 2) {
      const double ideal = zipf.Probability(rank);
      EXPECT_NEAR(frequency, ideal, kRelativeTolerance * ideal) << "rank " << rank;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    YcsbSkews, ZipfianFrequencyTest,
    ::testing::Values(FrequencyCase{10'000, 0.99, 10'000'000, "n10k_theta099"},
                      FrequencyCase{10'000, 0.9, 10'000'000, "n10k_theta090"},
                      FrequencyCase{1'000'000, 0.99, 10'000'000, "n1m_theta099"},
                      FrequencyCase{1'000'000, 0.9, 16'000'000, "n1m_theta090"}),
    [](const ::testing::TestParamInfo<FrequencyCase>& case_info) {
      return std::string(case_info.param.name);
    });

// The top-rank test cannot see the tail; power-of-two rank buckets cover every rank.
TEST(ZipfianGeneratorTest, RankBucketsPassChiSquare) {
  constexpr uint64_t kItems = 10'000;
  constexpr int kSamples = 1'000'000;
  // Buckets [0, 1), [1, 2), [2, 4), ..., [8192, 10000): 15 buckets, 14 degrees of freedom, whose
  // chi-square exceeds 36.12 with probability 0.001.
  constexpr size_t kBuckets = std::bit_width(kItems - 1) + 1;
  constexpr double kCriticalValue = 36.12;
  static_assert(kBuckets == 15);
  const ZipfianGenerator zipf(kItems, 0.99);
  std::array<double, kBuckets> expected{};
  for (uint64_t rank = 0; rank < kItems; ++rank) {
    expected[std::bit_width(rank)] += zipf.SamplingProbability(rank) * kSamples;
  }
  std::array<int, kBuckets> counts{};
  Random rng(99);
  for (int i = 0; i < kSamples; ++i) ++counts[std::bit_width(zipf.Next(rng))];
  double chi_square = 0.0;
  for (size_t bucket = 0; bucket < kBuckets; ++bucket) {
    const double difference = counts[bucket] - expected[bucket];
    chi_square += difference * difference / expected[bucket];
  }
  EXPECT_LT(chi_square, kCriticalValue);
}

TEST(ZipfianGeneratorTest, ProbabilitiesSumToOne) {
  for (const uint64_t items :
       {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{10'000}, uint64_t{1'000'000}}) {
    for (const double theta : {0.0, 0.5, 0.9, 0.99}) {
      const ZipfianGenerator zipf(items, theta);
      double ideal_sum = 0.0;
      double sampling_sum = 0.0;
      for (uint64_t rank = 0; rank < items; ++rank) {
        ideal_sum += zipf.Probability(rank);
        sampling_sum += zipf.SamplingProbability(rank);
      }
      EXPECT_NEAR(ideal_sum, 1.0, 1e-9) << "items " << items << ", theta " << theta;
      EXPECT_NEAR(sampling_sum, 1.0, 1e-9) << "items " << items << ", theta " << theta;
      EXPECT_EQ(zipf.Probability(items), 0.0);
      EXPECT_EQ(zipf.SamplingProbability(items), 0.0);
    }
  }
}

// Pins down the known bias of YCSB's generator, so that replacing the algorithm (and silently
// changing every "zipfian" result) cannot happen without revisiting this test and the header.
TEST(ZipfianGeneratorTest, SamplingMatchesZipfForRanksZeroAndOneOnlyAsInYcsb) {
  const ZipfianGenerator zipf(10'000, 0.99);
  EXPECT_NEAR(zipf.SamplingProbability(0) / zipf.Probability(0), 1.0, 1e-12);
  EXPECT_NEAR(zipf.SamplingProbability(1) / zipf.Probability(1), 1.0, 1e-12);
  EXPECT_NEAR(zipf.SamplingProbability(2) / zipf.Probability(2), 1.183, 0.005);
  EXPECT_NEAR(zipf.SamplingProbability(9) / zipf.Probability(9), 1.026, 0.005);
}

TEST(ZipfianGeneratorTest, ThetaZeroIsUniform) {
  constexpr uint64_t kItems = 1'000;
  const ZipfianGenerator zipf(kItems, 0.0);
  for (uint64_t rank = 0; rank < kItems; ++rank) {
    EXPECT_NEAR(zipf.Probability(rank) * kItems, 1.0, 1e-12) << "rank " << rank;
    EXPECT_NEAR(zipf.SamplingProbability(rank) * kItems, 1.0, 1e-9) << "rank " << rank;
  }
}

TEST(ZipfianGeneratorTest, RanksStayInRange) {
  Random rng(5);
  for (const uint64_t items : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{10}}) {
    for (const double theta : {0.0, 0.5, 0.99}) {
      const ZipfianGenerator zipf(items, theta);
      std::vector<int> counts(items);
      for (int i = 0; i < 100'000; ++i) {
        const uint64_t rank = zipf.Next(rng);
        ASSERT_LT(rank, items) << "items " << items << ", theta " << theta;
        ++counts[rank];
      }
      for (uint64_t rank = 0; rank < items; ++rank) {
        EXPECT_GT(counts[rank], 0) << "items " << items << ", theta " << theta << ", rank " << rank;
      }
    }
  }
}

// Two items take only the exact branches of the algorithm: 1 : 0.5^theta.
TEST(ZipfianGeneratorTest, TwoItemsSplitAsZipf) {
  constexpr int kSamples = 1'000'000;
  const ZipfianGenerator zipf(2, 0.5);
  Random rng(11);
  int ones = 0;
  for (int i = 0; i < kSamples; ++i) ones += static_cast<int>(zipf.Next(rng));
  const double expected = std::pow(0.5, 0.5) / (1.0 + std::pow(0.5, 0.5));
  // sd of the frequency is 0.0005; 0.005 is 10 sd.
  EXPECT_NEAR(static_cast<double>(ones) / kSamples, expected, 0.005);
  EXPECT_NEAR(zipf.Probability(1), expected, 1e-12);
}

TEST(ZipfianGeneratorTest, SameSeedGivesSameSequence) {
  const ZipfianGenerator zipf(1'000'000, 0.99);
  Random first(77);
  Random second(77);
  Random other(78);
  int differences_from_other = 0;
  for (int i = 0; i < 10'000; ++i) {
    const uint64_t rank = zipf.Next(first);
    ASSERT_EQ(rank, zipf.Next(second));
    if (rank != zipf.Next(other)) ++differences_from_other;
  }
  // Two independent draws coincide with probability sum(p^2) ~ 0.007 at this skew.
  EXPECT_GT(differences_from_other, 9'000);
}

TEST(ZipfianGeneratorTest, ReportsItsParameters) {
  const ZipfianGenerator zipf(1'234, 0.75);
  EXPECT_EQ(zipf.items(), 1'234u);
  EXPECT_EQ(zipf.theta(), 0.75);
}

TEST(ZipfianGeneratorTest, RejectsThetaOutsideZeroToOne) {
  for (const double theta : {-0.1, 1.0, 1.2, std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity()}) {
    EXPECT_THROW(ZipfianGenerator(100, theta), std::invalid_argument) << "theta " << theta;
  }
  try {
    ZipfianGenerator(100, 1.2);
    FAIL() << "theta 1.2 accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "zipfian theta must be in [0, 1), got 1.2");
  }
}

TEST(ZipfianGeneratorTest, RejectsZeroItems) {
  try {
    ZipfianGenerator(0, 0.99);
    FAIL() << "0 items accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "zipfian items must be >= 1, got 0");
  }
}

}  // namespace
}  // namespace dmbench::workloads
