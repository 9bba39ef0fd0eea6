// The unloaded READ time computed from the NIC profile is what a lone client
// measures on the simulated fabric: the two prices of one READ cannot drift.
#include <gtest/gtest.h>

#include <vector>

#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/rdma/sim/unloaded_timing.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::DefaultProfile;

// What one client measures for one READ of `bytes` from memory server
// `server`, alone on the fabric, in nanoseconds on its own clock.
uint64_t MeasuredRead(const Topology& topology, const NicProfile& profile, uint16_t server,
                      uint32_t bytes) {
  const auto cluster = test_support::MakeCluster(topology, profile);
  uint64_t took = 0;
  std::vector<uint8_t> buffer(bytes);
  cluster->Run([&](Client& client) {
    if (client.location().index != 0) return;
    const uint64_t started = client.NowNanoseconds();
    client.Read(GlobalAddress::Host(server, 4096), buffer.data(), bytes);
    took = client.NowNanoseconds() - started;
  });
  return took;
}

// The client's clock counts whole nanoseconds, the model picoseconds.
void ExpectSame(uint64_t measured_ns, SimTime computed) {
  EXPECT_NEAR(static_cast<double>(measured_ns), ToNanoseconds(computed), 1.0);
}

TEST(UnloadedTiming, ReadMatchesTheSimulatedFabric) {
  NicProfile jumbo = DefaultProfile();  // many packets per node, costly headers
  jumbo.link_mtu_bytes = 256;
  jumbo.link_packet_overhead_bytes = 100;
  jumbo.pcie_bandwidth_gbps = 16;
  for (const NicProfile& profile : {DefaultProfile(), jumbo}) {
    for (const uint32_t bytes : {8u, 1024u, 4096u, 4097u, 65536u}) {
      SCOPED_TRACE(::testing::Message() << bytes << " B, MTU " << profile.link_mtu_bytes);
      ExpectSame(MeasuredRead(test_support::SmallTopology(2, 1, 1), profile, 1, bytes),
                 UnloadedReadTime(profile, bytes, ReadPath::kRemote));
      Topology machines = test_support::SmallTopology(2, 2, 1);
      machines.colocated = true;
      ExpectSame(MeasuredRead(machines, profile, 0, bytes),
                 UnloadedReadTime(profile, bytes, ReadPath::kLoopback));
    }
  }
}

TEST(UnloadedTiming, DefaultProfileMeetsItsRoundTripTarget) {
  // The calibration target: an unloaded small READ round trip of about 2 us.
  const double small = ToNanoseconds(UnloadedReadTime(DefaultProfile(), 8, ReadPath::kRemote));
  EXPECT_GT(small, 1500);
  EXPECT_LT(small, 2500);
}

TEST(UnloadedTiming, PathsFollowTheMachines) {
  Topology topology = test_support::SmallTopology(2, 2, 1);
  EXPECT_EQ(PathOf(topology, 0, 0), ReadPath::kRemote);
  EXPECT_EQ(SlowestPath(topology), ReadPath::kRemote);
  topology.colocated = true;
  EXPECT_EQ(PathOf(topology, 1, 1), ReadPath::kLoopback);
  EXPECT_EQ(PathOf(topology, 1, 0), ReadPath::kRemote);
  EXPECT_EQ(SlowestPath(topology), ReadPath::kRemote);
  topology.memory_servers = topology.compute_servers = 1;
  EXPECT_EQ(SlowestPath(topology), ReadPath::kLoopback);
}

TEST(UnloadedTiming, WireCountsAHeaderPerPacket) {
  NicProfile profile = DefaultProfile();
  profile.link_bandwidth_gbps = 8;  // one byte per nanosecond
  profile.link_mtu_bytes = 1000;
  profile.link_packet_overhead_bytes = 10;
  EXPECT_EQ(WireTime(profile, 0), Nanoseconds(10));  // a request still takes a packet
  EXPECT_EQ(WireTime(profile, 1000), Nanoseconds(1010));
  EXPECT_EQ(WireTime(profile, 1001), Nanoseconds(1021));
}

}  // namespace
}  // namespace dmbench::rdma::sim
