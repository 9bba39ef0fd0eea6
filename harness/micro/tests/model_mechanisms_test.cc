// What each switchable mechanism of the NIC model does, seen through the
// microbenchmarks: switched off, the fabric is the one before the mechanism
// existed; switched on, contended atomics slow down other requests on their
// NIC, far less on on-chip memory.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/micro/interference_benchmark.h"
#include "harness/micro/spinlock_benchmark.h"
#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::micro {
namespace {

rdma::sim::NicProfile MechanismsOff() {
  rdma::sim::NicProfile profile = rdma::sim::test_support::DefaultProfile();
  profile.processing_units = 0;
  profile.atomic_parking_slots = 0;
  profile.atomic_bucket_arbitration = rdma::sim::BucketArbitration::kFifo;
  profile.cpu_index_cache_lookup_ns = 0;
  profile.cpu_key_generation_ns = 0;
  profile.cpu_crc_ns_per_byte = 0;
  profile.cpu_coroutine_switch_ns = 0;
  profile.cpu_lock_spinner_ns = 0;
  return profile;
}

nlohmann::json SmallSpinlock(const rdma::sim::NicProfile& profile) {
  SpinlockBenchmarkConfig config;
  config.thetas = {0.99};
  // The locks themselves drawn Zipfian, as every revision before the keys'
  // law drew them.
  config.key_space = 0;
  config.topology = MicroTopology(2);
  MicroOptions options;
  options.profile = profile;
  options.warmup_us = 200;
  options.measure_us = 1000;
  std::ostringstream table;
  return RunSpinlockBenchmark(config, options, table);
}

// The figures are those of revision 79df87f, the last before processing
// units, bucket arbitration and per-operation CPU costs: with every one of
// them off, the same run is the same run, event for event.
TEST(ModelMechanisms, AllOffReproducesTheFabricBeforeThem) {
  const nlohmann::json result = SmallSpinlock(MechanismsOff());
  const nlohmann::json& faa = result.at("points").at(0);
  const nlohmann::json& write = result.at("points").at(1);
  EXPECT_EQ(faa.at("operations"), 606);
  EXPECT_EQ(faa.at("simulator").at("events"), 16831);
  EXPECT_EQ(write.at("operations"), 4136);
  EXPECT_EQ(write.at("simulator").at("events"), 31106);
}

TEST(ModelMechanisms, RandomArbitrationIsDeterministicAndDiffersFromFifo) {
  rdma::sim::NicProfile profile = MechanismsOff();
  profile.atomic_bucket_arbitration = rdma::sim::BucketArbitration::kRandom;
  const nlohmann::json first = SmallSpinlock(profile);
  const nlohmann::json second = SmallSpinlock(profile);
  EXPECT_EQ(first.at("points").at(0).at("operations"), second.at("points").at(0).at("operations"));
  EXPECT_NE(first.at("points").at(0).at("simulator").at("events"), 16831);
}

// READ throughput per reading client with 0, 24 and 64 more spinners than
// the shipped profile's parking slots: the points where spinners begin to
// hold processing units.
std::vector<double> ReadRatePerReader(const rdma::sim::NicProfile& profile,
                                      rdma::MemorySpace space) {
  InterferenceBenchmarkConfig config;
  config.spaces = {space};
  const auto slots =
      static_cast<uint32_t>(rdma::sim::test_support::DefaultProfile().atomic_parking_slots);
  config.spinners = {0, slots + 24, slots + 64};
  MicroOptions options;
  options.profile = profile;
  options.warmup_us = 20;
  options.measure_us = 200;
  std::ostringstream table;
  const nlohmann::json result = RunInterferenceBenchmark(config, options, table);
  std::vector<double> rates;
  for (const nlohmann::json& point : result.at("points")) {
    rates.push_back(point.at("mops").get<double>() / point.at("readers").get<double>());
  }
  return rates;
}

TEST(ModelMechanisms, SpinningAtomicsSlowReadsOfOtherAddressesOnHostMemory) {
  const std::vector<double> host =
      ReadRatePerReader(rdma::sim::test_support::DefaultProfile(), rdma::MemorySpace::kHost);
  EXPECT_LT(host[1], 0.6 * host[0]);
  EXPECT_LT(host[2], 0.5 * host[1]);
}

TEST(ModelMechanisms, OnChipSpinnersHurtReadsFarLess) {
  const std::vector<double> host =
      ReadRatePerReader(rdma::sim::test_support::DefaultProfile(), rdma::MemorySpace::kHost);
  const std::vector<double> on_chip =
      ReadRatePerReader(rdma::sim::test_support::DefaultProfile(), rdma::MemorySpace::kOnChip);
  // An on-chip atomic holds its unit 150 ns, a host one a 450 ns PCIe read:
  // readers keep more of their rate, and more so the more spinners there are.
  EXPECT_GT(on_chip[1], 1.3 * host[1]);
  EXPECT_GT(on_chip[2] / host[2], on_chip[1] / host[1]);
}

TEST(ModelMechanisms, WithoutProcessingUnitsSpinnersCostReadersNothing) {
  const std::vector<double> host = ReadRatePerReader(MechanismsOff(), rdma::MemorySpace::kHost);
  EXPECT_NEAR(host[1], host[0], 0.05 * host[0]);
  EXPECT_NEAR(host[2], host[0], 0.05 * host[0]);
}

// With a parking slot for every waiter, an atomic holds its unit only while
// it executes, so readers barely notice the spinners.
TEST(ModelMechanisms, EnoughParkingSlotsLeaveReadersAlone) {
  rdma::sim::NicProfile profile = rdma::sim::test_support::DefaultProfile();
  const std::vector<double> held = ReadRatePerReader(profile, rdma::MemorySpace::kHost);
  profile.atomic_parking_slots = 1 << 20;
  const std::vector<double> parked = ReadRatePerReader(profile, rdma::MemorySpace::kHost);
  EXPECT_NEAR(parked[2], parked[0], 0.1 * parked[0]);
  EXPECT_GT(parked[2], 3 * held[2]);
}

}  // namespace
}  // namespace dmbench::micro
