// workload.zipf_population: ranks drawn over P items, folded onto the N keys, give the top keys
// the shares they have among P items; bad values are ConfigErrors naming the field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "harness/util/tests/mentions.h"
#include "workloads/client_workload.h"
#include "workloads/key_space.h"
#include "workloads/tests/spec_reading.h"
#include "workloads/workload_scale.h"
#include "workloads/workload_spec.h"
#include "workloads/zipf_zeta.h"

namespace dmbench::workloads {
namespace {

constexpr uint64_t kBillion = 1'000'000'000;

WorkloadSpec PopulationSpec(uint64_t keys, uint64_t population, const std::string& mix = "ycsb-c") {
  WorkloadSpec spec;
  spec.SetMix(mix);
  spec.keys = keys;
  spec.zipf_population = population;
  return spec;
}

using test_support::ReadSpec;
using test_support::SpecErrorOf;

TEST(ZipfPopulationTest, ScaleRecordsTheHottestShareOfTheKeysAndOfThePopulation) {
  const WorkloadSpec scaled = PopulationSpec(10'000'000, 0);
  const WorkloadScale at_keys = DescribeScale(KeySpace(scaled, 1));
  EXPECT_EQ(at_keys.zipf_population, 10'000'000u);
  EXPECT_NEAR(at_keys.hottest_key_share, 0.0552, 0.0005);
  EXPECT_EQ(at_keys.folded_share, 0.0);
  const WorkloadScale at_paper = DescribeScale(KeySpace(PopulationSpec(10'000'000, kBillion), 1));
  EXPECT_EQ(at_paper.keys, 10'000'000u);
  EXPECT_EQ(at_paper.zipf_population, kBillion);
  EXPECT_NEAR(at_paper.hottest_key_share, 0.0424, 0.0005);
  EXPECT_DOUBLE_EQ(at_paper.hottest_key_share, 1.0 / ZetaFast(kBillion, 0.99));
  EXPECT_GT(at_paper.top10_keys_share, at_paper.hottest_key_share * 3);
  // Gray's sampler leaves 1 - zeta(N)/zeta(P) = 23% beyond 1e7 ranks only approximately.
  EXPECT_NEAR(at_paper.folded_share, 1.0 - ZetaFast(10'000'000, 0.99) / ZetaFast(kBillion, 0.99),
              0.01);
  const nlohmann::json json = at_paper.ToJson();
  EXPECT_EQ(json["zipf_population"], kBillion);
  EXPECT_TRUE(json.contains("top10_keys_share"));
  WorkloadSpec uniform = PopulationSpec(1000, 0);
  uniform.distribution = KeyDistribution::kUniform;
  EXPECT_DOUBLE_EQ(DescribeScale(KeySpace(uniform, 1)).hottest_key_share, 1e-3);
}

// The top keys' frequencies follow the law over 1e9 ranks, not over the 1e5 keys (1/zeta(1e5) is
// 8.2%, twice the 4.2% expected): ranks 0 and 1 the ideal 1/zeta(P) (r+1)^-theta, ranks 2..9
// Gray's sampling probability. Folding adds at most 2/N = 2e-5 to a key's share.
TEST(ZipfPopulationTest, TopKeysFollowTheZipfLawOfThePopulation) {
  constexpr uint64_t kKeys = 100'000;
  constexpr int kSamples = 4'000'000;
  const WorkloadSpec spec = PopulationSpec(kKeys, kBillion);
  KeySpace keys(spec, 5);
  ClientWorkload client(spec, keys, 5, 0, 1);
  std::unordered_map<uint64_t, int> counts;
  for (int i = 0; i < kSamples; ++i) ++counts[client.Next().key];
  const ZipfianGenerator& zipf = *keys.zipfian();
  for (uint64_t rank = 0; rank < 10; ++rank) {
    const double expected = rank < 2 ? 1.0 / (ZetaFast(kBillion, 0.99) * std::pow(rank + 1.0, 0.99))
                                     : zipf.SamplingProbability(rank);
    const double frequency = counts[keys.KeyOfRank(rank)] / static_cast<double>(kSamples);
    const double deviation = std::sqrt(expected * (1 - expected) / kSamples);
    EXPECT_NEAR(frequency, expected, 5 * deviation + 2.0 / kKeys) << "rank " << rank;
  }
}

TEST(ZipfPopulationTest, FoldedDrawsHaveTheirPredictedShareAndStayInTheKeySpace) {
  constexpr uint64_t kKeys = 1000;
  const WorkloadSpec spec = PopulationSpec(kKeys, 1'000'000'000'000);
  KeySpace keys(spec, 3);
  Random rng(9);
  constexpr int kSamples = 1'000'000;
  int folded = 0;
  for (int i = 0; i < kSamples; ++i) {
    const uint64_t rank = keys.zipfian()->Next(rng);
    folded += rank >= kKeys ? 1 : 0;
    ASSERT_LT(keys.FoldRank(rank), kKeys);
  }
  const double expected = DescribeScale(keys).folded_share;
  EXPECT_NEAR(folded / static_cast<double>(kSamples), expected,
              5 * std::sqrt(expected * (1 - expected) / kSamples));
}

// 0 and a population equal to the key count are the same default generator and stream.
TEST(ZipfPopulationTest, PopulationOfTheKeyCountIsTheDefaultStream) {
  const WorkloadSpec unset = PopulationSpec(50'000, 0, "write-intensive");
  const WorkloadSpec equal = PopulationSpec(50'000, 50'000, "write-intensive");
  KeySpace unset_keys(unset, 11);
  KeySpace equal_keys(equal, 11);
  EXPECT_EQ(unset_keys.zipfian()->zetan(), equal_keys.zipfian()->zetan());
  ClientWorkload first(unset, unset_keys, 11, 0, 2);
  ClientWorkload second(equal, equal_keys, 11, 0, 2);
  for (int i = 0; i < 10'000; ++i) ASSERT_EQ(first.Next().key, second.Next().key) << i;
}

// Every key space takes ZetaFast: a billion keys cannot wait for the 18 s sum, and 100 M keys
// spent most of their set-up on it.
TEST(ZipfPopulationTest, KeySpacesTakeTheFastZeta) {
  for (const uint64_t count : {uint64_t{50'000}, uint64_t{1} << 30}) {
    KeySpace keys(PopulationSpec(count, 0, "write-intensive"), 11);
    EXPECT_EQ(keys.zipfian()->zetan(), ZetaFast(count, 0.99)) << count;
    EXPECT_EQ(keys.zipfian()->items(), count);
  }
}

TEST(ZipfPopulationTest, BadPopulationsNameTheFieldAndWhatIsAllowed) {
  const std::string small = SpecErrorOf({{"keys", 1000}, {"zipf_population", 999}});
  EXPECT_TRUE(Mentions(small, "workload.zipf_population"));
  EXPECT_TRUE(Mentions(small, "must be 0 (the key count) or an integer in [keys = 1000, "));
  EXPECT_TRUE(Mentions(small, "got 999"));
  const std::string fraction = SpecErrorOf({{"zipf_population", 1.5e9 + 0.5}});
  EXPECT_TRUE(Mentions(fraction, "workload.zipf_population"));
  EXPECT_TRUE(Mentions(fraction, "must be an integer"));
  // Written as a double, a whole population is the integer it names.
  EXPECT_EQ(SpecErrorOf({{"zipf_population", 1.5e9}}), "no error");
  EXPECT_TRUE(Mentions(SpecErrorOf({{"zipf_population", -5}}), "workload.zipf_population"));
  EXPECT_TRUE(Mentions(SpecErrorOf({{"zipf_population", "1e9"}}), "workload.zipf_population"));
  EXPECT_TRUE(
      Mentions(SpecErrorOf({{"zipf_population", uint64_t{1} << 51}}), "workload.zipf_population"));
  const std::string uniform =
      SpecErrorOf({{"distribution", "uniform"}, {"zipf_population", kBillion}});
  EXPECT_TRUE(Mentions(uniform, "workload.zipf_population"));
  EXPECT_TRUE(Mentions(uniform, "applies to distribution zipfian only"));
  const std::string latest = SpecErrorOf({{"mix", "ycsb-d"}, {"zipf_population", kBillion}});
  EXPECT_TRUE(Mentions(latest, "workload.zipf_population"));
  EXPECT_TRUE(Mentions(latest, "distribution latest"));
  // Uniform and latest with 0 (off) stay valid.
  EXPECT_EQ(SpecErrorOf({{"distribution", "uniform"}, {"zipf_population", 0}}), "no error");
  EXPECT_EQ(SpecErrorOf({{"mix", "ycsb-d"}}), "no error");
}

TEST(ZipfPopulationTest, ConfigEchoReadsBack) {
  const WorkloadSpec spec = ReadSpec({{"keys", 20'000}, {"zipf_population", kBillion}});
  EXPECT_EQ(spec.zipf_population, kBillion);
  EXPECT_EQ(spec.ZipfPopulation(), kBillion);
  const nlohmann::json written = spec.ToJson();
  EXPECT_EQ(written["zipf_population"], kBillion);
  EXPECT_EQ(ReadSpec(written), spec);
  EXPECT_EQ(WorkloadSpec().ToJson()["zipf_population"], 0);
}

}  // namespace
}  // namespace dmbench::workloads
