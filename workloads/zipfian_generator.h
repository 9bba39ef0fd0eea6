// Zipfian-distributed ranks, drawn exactly as YCSB's ZipfianGenerator draws them.
//
// We reproduce YCSB's algorithm (Gray et al., "Quickly generating billion-record synthetic
// databases", SIGMOD'94) instead of an exact Zipf sampler so that "zipfian, theta 0.99" means
// the same skew here as in the YCSB-based papers we compare against. Gray's inversion is exact
// only for ranks 0 and 1: it maps the continuous density x^-theta over [k, k+1) to rank k, which
// over-weights rank k >= 2 against the ideal (k+1)^-theta (rank 2 by ~18% at theta 0.99, fading
// to ~3% by rank 9, while the far tail is under-weighted by ~3%). Probability() is the ideal Zipf
// law; SamplingProbability() is what Next() really draws, so tests and analyses can use either.
#pragma once

#include <cstdint>

#include "harness/util/random.h"

namespace dmbench::workloads {

class ZipfianGenerator {
 public:
  // Ranks in [0, items), rank 0 the most popular; theta in [0, 1), theta 0 being uniform.
  // zeta(items, theta) comes from ZetaFast (O(1), exact to rounding), where YCSB sums it. Next()
  // is const and all draw state lives in the caller's Random, so clients may share one generator.
  // Throws std::invalid_argument if items == 0 or theta is outside [0, 1).
  ZipfianGenerator(uint64_t items, double theta);

  // The same generator with zeta(items, theta) given (Gray's inversion needs nothing else that
  // grows with items). Throws std::invalid_argument as above, or if zetan is not finite and >= 1.
  ZipfianGenerator(uint64_t items, double theta, double zetan);

  uint64_t Next(Random& rng) const;

  // Ideal Zipf probability of `rank`: 1 / ((rank + 1)^theta * zeta(items, theta)).
  double Probability(uint64_t rank) const;

  // Probability that Next() returns `rank` (Gray's approximation, see above).
  double SamplingProbability(uint64_t rank) const;

  // Probability that Next() returns a rank >= `rank`, in closed form (no sum over ranks).
  double SamplingTail(uint64_t rank) const;

  // zeta(items, theta): the hottest rank takes 1 / zetan() of the draws.
  double zetan() const { return zetan_; }

  uint64_t items() const { return items_; }
  double theta() const { return theta_; }

 private:
  uint64_t items_;
  double theta_;
  double zetan_;
  double alpha_;
  double eta_;
  // u * zetan below this (and >= 1) selects rank 1: 1 + 0.5^theta, i.e. zeta(2, theta).
  double zeta2theta_;
};

}  // namespace dmbench::workloads
