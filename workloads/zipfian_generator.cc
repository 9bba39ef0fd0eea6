#include "workloads/zipfian_generator.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "workloads/zipf_zeta.h"

namespace dmbench::workloads {
namespace {

void ValidateArguments(uint64_t items, double theta) {
  if (items == 0) throw std::invalid_argument("zipfian items must be >= 1, got 0");
  // Written so that NaN fails too.
  if (!(theta >= 0.0 && theta < 1.0)) {
    std::ostringstream message;
    message << "zipfian theta must be in [0, 1), got " << theta;
    throw std::invalid_argument(message.str());
  }
}

// ZetaFast's theta must be in [0, 1): validated first.
double ValidatedZeta(uint64_t items, double theta) {
  ValidateArguments(items, theta);
  return ZetaFast(items, theta);
}

}  // namespace

ZipfianGenerator::ZipfianGenerator(uint64_t items, double theta)
    : ZipfianGenerator(items, theta, ValidatedZeta(items, theta)) {}

ZipfianGenerator::ZipfianGenerator(uint64_t items, double theta, double zetan)
    : items_(items), theta_(theta), zetan_(zetan), alpha_(0.0), eta_(0.0), zeta2theta_(0.0) {
  ValidateArguments(items, theta);
  // Written so that NaN fails too.
  if (!(zetan >= 1.0 && std::isfinite(zetan))) {
    std::ostringstream message;
    message << "zipfian zetan must be finite and >= 1, got " << zetan;
    throw std::invalid_argument(message.str());
  }
  alpha_ = 1.0 / (1.0 - theta);
  zeta2theta_ = 1.0 + std::pow(0.5, theta);
  // With fewer than 3 items YCSB's eta is 0/0, yet Next() never needs it: every draw lands on
  // rank 0 or 1. Keep it finite anyway so that a rounding surprise cannot cast NaN to an integer.
  if (items > 2) {
    eta_ = (1.0 - std::pow(2.0 / static_cast<double>(items), 1.0 - theta)) /
           (1.0 - zeta2theta_ / zetan_);
  }
}

uint64_t ZipfianGenerator::Next(Random& rng) const {
  const double u = rng.NextDouble();
  const double uz = u * zetan_;
  if (uz < 1.0) return 0;
  if (uz < zeta2theta_) return 1;
  const auto rank =
      static_cast<uint64_t>(static_cast<double>(items_) * std::pow(eta_ * u - eta_ + 1.0, alpha_));
  // u < 1, but the base can round up to exactly 1; YCSB would then return items (out of range).
  return std::min(rank, items_ - 1);
}

double ZipfianGenerator::Probability(uint64_t rank) const {
  if (rank >= items_) return 0.0;
  return 1.0 / (std::pow(static_cast<double>(rank + 1), theta_) * zetan_);
}

double ZipfianGenerator::SamplingProbability(uint64_t rank) const {
  if (rank >= items_) return 0.0;
  if (rank == 0) return std::min(1.0, 1.0 / zetan_);
  if (rank == 1) return (zeta2theta_ - 1.0) / zetan_;
  // Next() returns k >= 2 when items * (eta*u - eta + 1)^alpha lies in [k, k+1), i.e. for u in an
  // interval of width ((k+1)^(1-theta) - k^(1-theta)) / (items^(1-theta) * eta). The difference
  // of powers is computed as k^(1-theta) * expm1((1-theta) * log1p(1/k)) to avoid cancellation
  // for large k.
  const double k = static_cast<double>(rank);
  const double exponent = 1.0 - theta_;
  const double power_difference =
      std::pow(k, exponent) * std::expm1(exponent * std::log1p(1.0 / k));
  return power_difference / (std::pow(static_cast<double>(items_), exponent) * eta_);
}

double ZipfianGenerator::SamplingTail(uint64_t rank) const {
  if (rank == 0) return 1.0;
  if (rank >= items_) return 0.0;
  if (rank == 1) return 1.0 - 1.0 / zetan_;
  // Next() returns >= k >= 2 exactly when items * (eta*u - eta + 1)^alpha >= k, i.e. when
  // u >= 1 - (1 - (k/items)^(1-theta)) / eta; u is uniform, so that is the probability. At k = 2
  // it equals 1 - zeta2theta/zetan by the definition of eta.
  const double exponent = 1.0 - theta_;
  const double ratio = static_cast<double>(rank) / static_cast<double>(items_);
  return -std::expm1(exponent * std::log(ratio)) / eta_;
}

}  // namespace dmbench::workloads
