// zeta(n, theta) = sum_{i=1}^{n} i^-theta, the normalising constant of a Zipf law over n ranks.
//
// The hottest of n Zipfian ranks takes 1 / zeta(n, theta) of the accesses, so this constant is
// what ties a scaled-down run's skew to the paper's: at theta 0.99, zeta(1e7) = 18.1 (hottest key
// 5.5%) but zeta(1e9) = 23.6 (4.2%). Summing 1e9..1e12 terms would take seconds to hours, so
// ZetaFast() sums the first terms exactly and the rest with the Euler-Maclaurin formula.
#pragma once

#include <cstdint>

namespace dmbench::workloads {

// The plain O(n) sum, term by term from i = 1, as YCSB computes it: ZetaFast's head, and the
// definition its tests hold it to.
double ZetaExact(uint64_t n, double theta);

// O(1) for any n: for n <= kZetaExactTerms the plain sum, else the sum of the first
// kZetaExactTerms - 1 terms plus the Euler-Maclaurin expansion of the rest through the B4 term:
//   sum_{i=M}^{n} f(i) = int_M^n f + (f(M) + f(n))/2 + (f'(n) - f'(M))/12
//                        - (f'''(n) - f'''(M))/720 + R,   f(x) = x^-theta, M = kZetaExactTerms.
// f is completely monotone, so R has the sign of the first omitted term and is smaller in
// magnitude: |R| <= |f^(5)(M)| / 30240 <= 120 M^-5 / 30240 < 4e-18 for theta in [0, 1). The
// result is therefore exact to floating-point rounding (about 1e-15 relative; the tests measure
// it against a compensated sum at n = 1e7, where the plain sum is 1e-13 off). Every Zipfian
// generator takes it: the plain sum was most of a run's set-up (1.5 s of 2 at 100 M keys, the
// SMART experiments' scale; 18 s at 1 billion), and its extra rounding moved no draw of the
// evaluation. theta must be in [0, 1) (callers validate it).
inline constexpr uint64_t kZetaExactTerms = 1000;
double ZetaFast(uint64_t n, double theta);

}  // namespace dmbench::workloads
