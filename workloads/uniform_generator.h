// Uniformly distributed ranks in [0, n), the baseline against which skewed workloads compare.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "harness/util/random.h"

namespace dmbench::workloads {

class UniformGenerator {
 public:
  // Throws std::invalid_argument if n == 0. Holds no RNG, like ZipfianGenerator, so that each
  // client draws from its own deterministic stream.
  explicit UniformGenerator(uint64_t n) : n_(n) {
    if (n == 0) throw std::invalid_argument("uniform items must be >= 1, got 0");
  }

  uint64_t Next(Random& rng) const { return rng.Uniform(n_); }

  uint64_t items() const { return n_; }

 private:
  uint64_t n_;
};

}  // namespace dmbench::workloads
