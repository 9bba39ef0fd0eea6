// Pins the operation streams of default specs (no zipf_population) to digests recorded before
// the rank population existed, so that any change to the default draw path shows up here: same
// config + seed must keep giving bit-identical results.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "workloads/client_workload.h"
#include "workloads/key_space.h"
#include "workloads/workload_spec.h"

namespace dmbench::workloads {
namespace {

// FNV-1a over every field of the first `operations` operations of client 1 of 3.
uint64_t StreamDigest(const std::string& mix, KeyDistribution distribution, int operations) {
  WorkloadSpec spec;
  spec.SetMix(mix);
  if (mix != "ycsb-d") spec.distribution = distribution;
  spec.keys = 250'000;
  KeySpace keys(spec, 7);
  ClientWorkload client(spec, keys, 7, 1, 3);
  uint64_t digest = 0xcbf29ce484222325ULL;
  auto mix_in = [&digest](uint64_t word) {
    for (int byte = 0; byte < 8; ++byte) {
      digest ^= (word >> (8 * byte)) & 0xff;
      digest *= 0x100000001b3ULL;
    }
  };
  for (int i = 0; i < operations; ++i) {
    const Operation op = client.Next();
    mix_in(static_cast<uint64_t>(op.type));
    mix_in(op.key);
    mix_in(op.value);
    mix_in(op.range_end);
    mix_in(op.limit);
  }
  return digest;
}

TEST(DefaultStreamTest, DefaultSpecsKeepTheirRecordedStreams) {
  struct Case {
    const char* mix;
    KeyDistribution distribution;
    uint64_t digest;
  };
  const Case cases[] = {
      {"write-intensive", KeyDistribution::kZipfian, 7961055355427261368ULL},
      {"read-intensive", KeyDistribution::kUniform, 6233790126862437936ULL},
      {"range-write", KeyDistribution::kZipfian, 11097440474297441451ULL},
      {"ycsb-a", KeyDistribution::kZipfian, 16383542706028476228ULL},
      {"ycsb-d", KeyDistribution::kLatest, 8359243238468086476ULL},
      {"ycsb-e", KeyDistribution::kZipfian, 15079675085658442536ULL},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(StreamDigest(c.mix, c.distribution, 20'000), c.digest)
        << c.mix << " " << KeyDistributionName(c.distribution);
  }
}

}  // namespace
}  // namespace dmbench::workloads
