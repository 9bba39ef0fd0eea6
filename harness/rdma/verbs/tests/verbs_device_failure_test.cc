// The verbs backend's failures on a real RDMA device (Soft-RoCE in CI, run
// inside the VM by ae/softroce/): a failed completion, a memory server that
// dies, nobody listening, a barrier nobody else reaches. Each must end the
// run with an error that names what failed, within a bound, never a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <thread>

#include "harness/rdma/errors.h"
#include "harness/rdma/memory_layout.h"
#include "harness/rdma/verbs/tests/verbs_device_fixture.h"
#include "harness/rdma/verbs/verbs_cluster.h"

namespace dmbench::rdma::verbs {
namespace {

using test_support::TestAddresses;
using test_support::VerbsDevice;

TEST_F(VerbsDevice, ACompletionErrorNamesTheVerbAndTheStatus) {
  VerbsCluster cluster(topology_, Options());
  servers_[0]->server().RevokeRegistrations();
  try {
    cluster.RunClients([&](Client& client) {
      uint64_t value = 0;
      client.Read(GlobalAddress::Host(0, MemoryLayout::kIndexAreaOffset), &value, 8);
    });
    FAIL() << "a READ of deregistered memory succeeded";
  } catch (const VerbError& error) {
    const std::string text = error.what();
    std::cout << "the error: " << text << "\n";  // the message users see, in the test log
    EXPECT_NE(text.find("RDMA READ to memory server 0 (" + servers_[0]->endpoint() + ") failed"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("IBV_WC_"), std::string::npos) << text;
  }
  // The cluster is broken now, and says so instead of trying again.
  EXPECT_THROW(cluster.RunClients([](Client&) {}), VerbError);
}

TEST_F(VerbsDevice, AMemoryServerThatDiesAbortsTheRunWithItsName) {
  VerbsCluster cluster(topology_, Options());
  const auto start = std::chrono::steady_clock::now();
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    servers_.back()->Stop();
  });
  try {
    cluster.RunClients([&](Client& client) {
      const auto last = static_cast<uint16_t>(cluster.shape().memory_servers - 1);
      for (;;) {
        uint64_t value = 0;
        client.Read(GlobalAddress::Host(last, MemoryLayout::kIndexAreaOffset), &value, 8);
      }
    });
    ADD_FAILURE() << "the run went on without its memory server";
  } catch (const VerbError& error) {
    const std::string text = error.what();
    std::cout << "the error: " << text << "\n";
    EXPECT_NE(text.find("memory server " + std::to_string(servers_.size() - 1)), std::string::npos)
        << text;
  }
  killer.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST_F(VerbsDevice, NobodyListeningIsAClearConnectionError) {
  VerbsOptions options = Options();
  options.memory_servers[0] = TestAddresses()[0] + ":1";
  options.connect_timeout_ms = 1000;
  try {
    VerbsCluster cluster(topology_, options);
    FAIL() << "connected to a port nobody listens on";
  } catch (const VerbError& error) {
    EXPECT_NE(std::string(error.what()).find("memory server 0 (" + options.memory_servers[0] + ")"),
              std::string::npos)
        << error.what();
  }
}

TEST_F(VerbsDevice, ABarrierNobodyElseReachesTimesOutByName) {
  topology_.compute_servers = 2;
  VerbsOptions options = Options(0);
  options.barrier_timeout_ms = 300;
  VerbsCluster cluster(topology_, options);
  try {
    cluster.Barrier(1, "bulkload done");
    FAIL() << "a barrier of two passed with one";
  } catch (const VerbError& error) {
    EXPECT_NE(std::string(error.what()).find("barrier 'bulkload done': 1 of 2 compute servers"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace dmbench::rdma::verbs
