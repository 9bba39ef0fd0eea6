// The fuzzer's own rules: what counts as a clear refusal, how a case is
// judged, and that a case is reproduced from its seed alone.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "harness/fuzz/config_inputs.h"
#include "harness/fuzz/fuzz_case.h"
#include "harness/fuzz/json_mutator.h"
#include "harness/rdma/errors.h"

namespace dmbench::fuzz {
namespace {

TEST(FuzzCase, ClearMessagesAreShortAndFreeOfLibraryInternals) {
  EXPECT_EQ(UnclearMessage("index.node_bytes: must be a multiple of 64"), "");
  EXPECT_NE(UnclearMessage(""), "");
  EXPECT_NE(UnclearMessage("f.json: [json.exception.type_error.302] type must be number"), "");
  EXPECT_NE(UnclearMessage("error: std::bad_alloc"), "");
  EXPECT_NE(UnclearMessage(std::string(5000, 'x')), "");
}

TEST(FuzzCase, OnlyConfigAndVerbErrorsAreRefusals) {
  EXPECT_EQ(Attempt([] {}).verdict, Verdict::kAccepted);
  EXPECT_EQ(Attempt([] { throw ConfigError("a.b: must be 1"); }).verdict, Verdict::kRefused);
  EXPECT_EQ(Attempt([] { throw rdma::VerbError("peer: bad magic"); }).verdict, Verdict::kRefused);
  EXPECT_EQ(Attempt([] { throw std::out_of_range("vector::_M_range_check"); }).verdict,
            Verdict::kFinding);
  EXPECT_EQ(Attempt([] { throw ConfigError("[json.exception.type_error.302]"); }).verdict,
            Verdict::kFinding);
  EXPECT_EQ(Attempt([] { throw PropertyFailure{"echo differs"}; }).verdict, Verdict::kFinding);
}

TEST(FuzzCase, SameSeedSameInput) {
  const ConfigInputs inputs;
  Random first(42), second(42);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(inputs.RunConfigText(first), inputs.RunConfigText(second));
  }
}

TEST(JsonMutator, EditsStayWithinTheDocumentsDepth) {
  const nlohmann::json seed = {{"index", {{"node_bytes", 1024}}}, {"run", {{"seed", 1}}}};
  const JsonMutator::Donors donors = JsonMutator::CollectDonors({seed});
  Random random(7);
  JsonMutator mutator(random, donors);
  for (int i = 0; i < 200; ++i) {
    const nlohmann::json mutated = mutator.Mutate(seed, 6);
    EXPECT_NO_THROW(Text(mutated));
  }
}

// A step from an integer at the end of int64 or uint64 gives the number just
// past it, which a reader must refuse, and never wraps around (a signed
// overflow, which the ASan+UBSan build stops at).
TEST(JsonMutator, StepsPastTheIntegerEdgesGiveTheNumbersBeyondThem) {
  struct Edge {
    nlohmann::json value;
    nlohmann::json beyond;
  };
  const Edge edges[] = {
      {std::numeric_limits<int64_t>::max(), uint64_t{1} << 63},
      {std::numeric_limits<int64_t>::min(), -9223372036854775808.0},
      {std::numeric_limits<uint64_t>::max(), 18446744073709551616.0},
      {uint64_t{0}, int64_t{-1}},
  };
  for (const Edge& edge : edges) {
    const nlohmann::json seed = {{"n", edge.value}};
    const JsonMutator::Donors donors = JsonMutator::CollectDonors({seed});
    Random random(11);
    JsonMutator mutator(random, donors);
    int beyond = 0;
    for (int i = 0; i < 1000; ++i) {
      const nlohmann::json mutated = mutator.Mutate(seed, 1);
      if (!mutated.is_object() || !mutated.contains("n")) continue;
      const nlohmann::json& n = mutated["n"];
      // The type too: nlohmann compares int64 and uint64 by value bits.
      if (n.type() == edge.beyond.type() && n == edge.beyond) ++beyond;
    }
    EXPECT_GT(beyond, 0) << "no step from " << edge.value << " gave " << edge.beyond;
  }
}

}  // namespace
}  // namespace dmbench::fuzz
