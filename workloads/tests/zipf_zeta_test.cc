// ZetaFast: the Euler-Maclaurin tail is exact to rounding, measured against a sum of every term.
#include "workloads/zipf_zeta.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>

#include "workloads/zipfian_generator.h"

namespace dmbench::workloads {
namespace {

// Every term, smallest first, with Neumaier's compensated summation: the sum itself adds no
// rounding, leaving each term's own (half an ulp, independent), about 1e-16 of the result, well
// below the 1e-14 that ZetaFast is held to. The plain sum ZetaExact is 1e-13 off at n = 1e7.
double ReferenceZeta(uint64_t n, double theta) {
  double sum = 0.0;
  double compensation = 0.0;
  for (uint64_t i = n; i >= 1; --i) {
    const double term = std::pow(static_cast<double>(i), -theta);
    const double next = sum + term;
    compensation += std::abs(sum) >= std::abs(term) ? (sum - next) + term : (term - next) + sum;
    sum = next;
  }
  return sum + compensation;
}

TEST(ZipfZetaTest, FastMatchesEveryTermSummedAtTenMillion) {
  constexpr uint64_t kN = 10'000'000;
  for (const double theta : {0.0, 0.5, 0.9, 0.99}) {
    const double reference = ReferenceZeta(kN, theta);
    const double fast = ZetaFast(kN, theta);
    const double error = std::abs(fast - reference) / reference;
    std::cout << "zeta(1e7, " << theta << "): reference " << reference << ", fast relative error "
              << error << ", plain double sum relative error "
              << std::abs(ZetaExact(kN, theta) - reference) / reference << "\n";
    EXPECT_LT(error, 1e-14) << "theta " << theta;
  }
}

TEST(ZipfZetaTest, FastIsThePlainSumUpToItsExactTermsAndClosePast) {
  for (const uint64_t n : {uint64_t{1}, uint64_t{2}, uint64_t{999}, kZetaExactTerms}) {
    EXPECT_EQ(ZetaFast(n, 0.99), ZetaExact(n, 0.99)) << n;
  }
  for (const uint64_t n : {kZetaExactTerms + 1, uint64_t{4321}, uint64_t{100'000}}) {
    EXPECT_NEAR(ZetaFast(n, 0.99) / ReferenceZeta(n, 0.99), 1.0, 1e-14) << n;
  }
  // theta 0 counts the items.
  EXPECT_NEAR(ZetaFast(uint64_t{1} << 40, 0.0), 1099511627776.0, 1e-3);
}

// The numbers: the hottest of 1e7 ranks takes 5.5%, of 1e9 ranks 4.2% (theta 0.99).
TEST(ZipfZetaTest, HottestShareAtTheScaledAndThePaperKeyCount) {
  EXPECT_NEAR(ZetaFast(10'000'000, 0.99), 18.1, 0.05);
  EXPECT_NEAR(ZetaFast(1'000'000'000, 0.99), 23.6, 0.05);
  EXPECT_NEAR(1.0 / ZetaFast(10'000'000, 0.99), 0.0552, 0.0005);
  EXPECT_NEAR(1.0 / ZetaFast(1'000'000'000, 0.99), 0.0424, 0.0005);
  // Growing on to a trillion, still in O(1).
  EXPECT_GT(ZetaFast(1'000'000'000'000, 0.99), ZetaFast(1'000'000'000, 0.99));
}

TEST(ZipfZetaTest, GeneratorOverABillionRanksBuildsInstantly) {
  const auto start = std::chrono::steady_clock::now();
  const ZipfianGenerator zipf(1'000'000'000, 0.99, ZetaFast(1'000'000'000, 0.99));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "generator over 1e9 ranks built in " << seconds * 1e6 << " us\n";
  EXPECT_NEAR(zipf.SamplingProbability(0), 0.0424, 0.0005);
  // A generous bound: the O(P) sum would take seconds.
  EXPECT_LT(seconds, 0.1);
}

}  // namespace
}  // namespace dmbench::workloads
