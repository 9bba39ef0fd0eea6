// The build's floating-point contract (CMakeLists.txt: -ffp-contract=off):
// results must not depend on whether the CPU a build targets can fuse a
// multiply and an add. Only a build for such a CPU (aarch64, or x86-64 with
// -march=x86-64-v3 and up) can fail this; the default x86-64 one has no FMA.
#include <gtest/gtest.h>

#include <cmath>

namespace dmbench {
namespace {

// Out of reach of constant folding and of the caller's optimizer, so that
// the compiler must emit the multiply-add for unknown operands; for GCC at
// -O2 and up, as the simulator builds (tests build at -O1, where GCC fuses
// nothing). Clang fuses at -O1 already, and knows neither attribute; the
// test passes it its operands through volatiles instead.
#if defined(__clang__)
[[gnu::noinline]] double MultiplyAdd(double a, double b, double c) { return a * b + c; }
#else
[[gnu::noipa, gnu::optimize("O2")]] double MultiplyAdd(double a, double b, double c) {
  return a * b + c;
}
#endif

TEST(FloatingPointTest, MultiplyAndAddRoundSeparately) {
  // a * b = 1 - 2^-60 exactly, which rounds to 1; fused, the sum keeps it.
  const double a = 1.0 + std::ldexp(1.0, -30);
  const double b = 1.0 - std::ldexp(1.0, -30);
  ASSERT_NE(std::fma(a, b, -1.0), 0.0);
  volatile double opaque_a = a, opaque_b = b;
  EXPECT_EQ(MultiplyAdd(opaque_a, opaque_b, -1.0), 0.0);
}

}  // namespace
}  // namespace dmbench
