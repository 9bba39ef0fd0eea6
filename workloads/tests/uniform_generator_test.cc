#include "workloads/uniform_generator.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "harness/util/random.h"

namespace dmbench::workloads {
namespace {

TEST(UniformGeneratorTest, ValuesStayBelowN) {
  Random rng(7);
  for (const uint64_t n :
       {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{1'000'003}, (uint64_t{1} << 63) + 1}) {
    const UniformGenerator uniform(n);
    EXPECT_EQ(uniform.items(), n);
    for (int i = 0; i < 100'000; ++i) ASSERT_LT(uniform.Next(rng), n) << "n = " << n;
  }
}

TEST(UniformGeneratorTest, PassesChiSquareOver100Buckets) {
  constexpr int kBuckets = 100;
  constexpr int kSamples = 1'000'000;
  // Chi-square with 99 degrees of freedom exceeds 148.2 with probability 0.001; a fixed seed
  // makes the outcome deterministic, so this only fails for a real bias.
  constexpr double kCriticalValue = 148.2;
  const UniformGenerator uniform(kBuckets);
  Random rng(42);
  std::array<int, kBuckets> counts{};
  for (int i = 0; i < kSamples; ++i) ++counts[uniform.Next(rng)];
  const double expected = static_cast<double>(kSamples) / kBuckets;
  double chi_square = 0.0;
  for (const int count : counts) chi_square += (count - expected) * (count - expected) / expected;
  EXPECT_LT(chi_square, kCriticalValue);
}

TEST(UniformGeneratorTest, SameSeedGivesSameSequence) {
  const UniformGenerator uniform(1'000'000);
  Random first(123);
  Random second(123);
  Random other(124);
  int differences_from_other = 0;
  for (int i = 0; i < 10'000; ++i) {
    const uint64_t value = uniform.Next(first);
    ASSERT_EQ(value, uniform.Next(second));
    if (value != uniform.Next(other)) ++differences_from_other;
  }
  EXPECT_GT(differences_from_other, 9'900);
}

TEST(UniformGeneratorTest, RejectsZeroItems) {
  EXPECT_THROW(UniformGenerator(0), std::invalid_argument);
}

}  // namespace
}  // namespace dmbench::workloads
