#include "workloads/zipf_zeta.h"

#include <cmath>

namespace dmbench::workloads {

double ZetaExact(uint64_t n, double theta) {
  double sum = 0.0;
  for (uint64_t i = 0; i < n; ++i) sum += 1.0 / std::pow(static_cast<double>(i + 1), theta);
  return sum;
}

double ZetaFast(uint64_t n, double theta) {
  if (n <= kZetaExactTerms) return ZetaExact(n, theta);
  const double m = static_cast<double>(kZetaExactTerms);
  const double x = static_cast<double>(n);
  // Terms 1 .. M-1 exactly, smallest first, so that rounding stays near one ulp of the result.
  double head = 0.0;
  for (uint64_t i = kZetaExactTerms - 1; i >= 1; --i) {
    head += std::pow(static_cast<double>(i), -theta);
  }
  // int_M^n x^-theta dx = (n^(1-theta) - M^(1-theta)) / (1-theta), written with expm1 so that it
  // keeps its precision as theta approaches 1 (n^0.01 and M^0.01 are close).
  const double s = 1.0 - theta;
  const double integral = std::pow(m, s) * std::expm1(s * std::log(x / m)) / s;
  const auto f = [theta](double at) { return std::pow(at, -theta); };
  // f'(x) = -theta x^(-theta-1);  f'''(x) = -theta (theta+1) (theta+2) x^(-theta-3).
  const auto first = [theta](double at) { return -theta * std::pow(at, -theta - 1.0); };
  const auto third = [theta](double at) {
    return -theta * (theta + 1.0) * (theta + 2.0) * std::pow(at, -theta - 3.0);
  };
  const double tail =
      integral + (f(m) + f(x)) / 2.0 + (first(x) - first(m)) / 12.0 - (third(x) - third(m)) / 720.0;
  return head + tail;
}

}  // namespace dmbench::workloads
