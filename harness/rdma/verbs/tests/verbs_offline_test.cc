// The verbs backend's parts that need no RDMA device: addresses, the
// connection data, status names, and that a cluster with nothing to connect
// to fails with a clear error instead of hanging.
#include <gtest/gtest.h>

#include <chrono>

#include "harness/rdma/errors.h"
#include "harness/rdma/verbs/completion_deadline.h"
#include "harness/rdma/verbs/completion_status.h"
#include "harness/rdma/verbs/endpoint.h"
#include "harness/rdma/verbs/memory_server_info.h"
#include "harness/rdma/verbs/verbs_cluster.h"

namespace dmbench::rdma::verbs {
namespace {

TEST(CompletionDeadline, ABatchIsLostOnlyWhenStillOverdueAGracePeriodLater) {
  constexpr uint64_t kMs = 1'000'000;
  CompletionDeadline deadline(10'000 * kMs);  // 10 s: the grace is its 1 s cap
  deadline.Start(5 * kMs);
  EXPECT_FALSE(deadline.Lost(10'005 * kMs));  // not overdue yet
  // A clock that jumps far past the deadline (the machine was stopped) is
  // one look: the completions get the grace period to arrive.
  EXPECT_FALSE(deadline.Lost(60'000 * kMs));
  EXPECT_FALSE(deadline.Lost(60'999 * kMs));
  EXPECT_TRUE(deadline.Lost(61'000 * kMs));
  // A new batch starts afresh: the earlier sighting does not count for it.
  deadline.Start(62'000 * kMs);
  EXPECT_FALSE(deadline.Lost(72'001 * kMs));
  EXPECT_FALSE(deadline.Lost(72'500 * kMs));
  EXPECT_TRUE(deadline.Lost(73'001 * kMs));
}

TEST(CompletionDeadline, AShortTimeoutIsItsOwnGrace) {
  CompletionDeadline deadline(200);
  deadline.Start(0);
  EXPECT_FALSE(deadline.Lost(201));
  EXPECT_FALSE(deadline.Lost(400));
  EXPECT_TRUE(deadline.Lost(401));
}

TEST(VerbsEndpoint, ParsesHostAndPort) {
  const Endpoint endpoint = ParseEndpoint("10.0.0.1:7471", "x");
  EXPECT_EQ(endpoint.host, "10.0.0.1");
  EXPECT_EQ(endpoint.port, 7471);
  EXPECT_EQ(ParseEndpoint("[fe80::1]:5", "x").host, "fe80::1");
}

TEST(VerbsEndpoint, RejectsWhatIsNotHostColonPort) {
  for (const char* bad : {"10.0.0.1", "10.0.0.1:", ":7471", "h:0", "h:65536", "h:7x"}) {
    try {
      ParseEndpoint(bad, "backend.memory_servers[0]");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& error) {
      EXPECT_NE(std::string(error.what()).find("backend.memory_servers[0]"), std::string::npos);
      EXPECT_NE(std::string(error.what()).find("expected host:port"), std::string::npos);
    }
  }
}

// A listener may take port 0 (any free port); the message names the range
// its caller allows.
TEST(VerbsEndpoint, NamesTheRangeItsCallerAllows) {
  EXPECT_EQ(ParseEndpoint("h:0", "listen", /*allow_any_port=*/true).port, 0);
  auto message = [](const char* text, bool allow_any_port) {
    try {
      ParseEndpoint(text, "x", allow_any_port);
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("h:0", false).find("outside [1, 65535]"), std::string::npos);
  EXPECT_NE(message("h:65536", true).find("outside [0, 65535] (0: any free port)"),
            std::string::npos);
}

TEST(VerbsMemoryServerInfo, RoundTripsThroughItsEncoding) {
  MemoryServerInfo info;
  info.host = {0x7f0012345000, 1ull << 30, 0xabcdef};
  info.on_chip = {0, 256 << 10, 0x1234};
  info.on_chip_is_device_memory = true;
  info.device_memory_offered = 131072 * 2;
  const std::vector<uint8_t> bytes = info.Encode();
  ASSERT_EQ(bytes.size(), MemoryServerInfo::kEncodedBytes);
  const MemoryServerInfo back = MemoryServerInfo::Decode(bytes.data(), bytes.size(), "s");
  EXPECT_EQ(back.host.base, info.host.base);
  EXPECT_EQ(back.host.bytes, info.host.bytes);
  EXPECT_EQ(back.host.rkey, info.host.rkey);
  EXPECT_EQ(back.on_chip.bytes, info.on_chip.bytes);
  EXPECT_EQ(back.on_chip.rkey, info.on_chip.rkey);
  EXPECT_TRUE(back.on_chip_is_device_memory);
  EXPECT_FALSE(back.failed_cas_writes_back);
  EXPECT_EQ(back.FallbackReason(), "");
  // Each flag travels on its own.
  for (const bool device_memory : {false, true}) {
    for (const bool writes_back : {false, true}) {
      info.on_chip_is_device_memory = device_memory;
      info.failed_cas_writes_back = writes_back;
      const std::vector<uint8_t> flagged = info.Encode();
      const MemoryServerInfo decoded =
          MemoryServerInfo::Decode(flagged.data(), flagged.size(), "s");
      EXPECT_EQ(decoded.on_chip_is_device_memory, device_memory);
      EXPECT_EQ(decoded.failed_cas_writes_back, writes_back);
    }
  }
}

TEST(VerbsMemoryServerInfo, ForeignOrShortDataIsRejectedByName) {
  std::vector<uint8_t> bytes = MemoryServerInfo{}.Encode();
  EXPECT_THROW(MemoryServerInfo::Decode(bytes.data(), 10, "peer"), VerbError);
  bytes[0] ^= 1;
  try {
    MemoryServerInfo::Decode(bytes.data(), bytes.size(), "10.0.0.9:1");
    FAIL();
  } catch (const VerbError& error) {
    EXPECT_NE(std::string(error.what()).find("10.0.0.9:1 is not a dmbench serve"),
              std::string::npos);
  }
  bytes[0] ^= 1;
  bytes[4] = 99;  // another protocol version
  EXPECT_THROW(MemoryServerInfo::Decode(bytes.data(), bytes.size(), "peer"), VerbError);
}

// Found by `dmbench fuzz`: flags this version does not have were ignored,
// and regions no address space holds were taken as they came.
TEST(VerbsMemoryServerInfo, UnknownFlagsAndImpossibleRegionsAreForeign) {
  MemoryServerInfo info;
  info.host = {0x7f0012345000, 1ull << 30, 1};
  const std::vector<uint8_t> good = info.Encode();
  EXPECT_NO_THROW(MemoryServerInfo::Decode(good.data(), good.size(), "peer"));
  auto decode_error = [](const std::vector<uint8_t>& bytes) {
    try {
      MemoryServerInfo::Decode(bytes.data(), bytes.size(), "peer");
    } catch (const VerbError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  std::vector<uint8_t> bytes = good;
  bytes[6] = 4;  // flags
  EXPECT_NE(decode_error(bytes).find("sent flags 4 that protocol version 2 does not have"),
            std::string::npos);
  MemoryServerInfo wrapping = info;
  wrapping.host.base = ~uint64_t{0} - 100;
  EXPECT_NE(decode_error(wrapping.Encode()).find("which no address space holds"),
            std::string::npos);
  MemoryServerInfo huge = info;
  huge.on_chip.bytes = uint64_t{1} << 50;
  EXPECT_NE(decode_error(huge.Encode()).find("on-chip memory of"), std::string::npos);
  MemoryServerInfo empty = info;
  empty.host.bytes = 0;
  EXPECT_NE(decode_error(empty.Encode()).find("offers no host memory"), std::string::npos);
}

TEST(VerbsMemoryServerInfo, FallbackReasonSaysWhy) {
  MemoryServerInfo info;
  info.on_chip.bytes = 256 << 10;
  EXPECT_NE(info.FallbackReason().find("max_dm_size"), std::string::npos);
  info.device_memory_errno = 95;
  EXPECT_NE(info.FallbackReason().find("ibv_alloc_dm failed: Operation not supported"),
            std::string::npos);
}

TEST(VerbsCompletionStatus, NamesVerbServerAndStatus) {
  ibv_wc completion{};
  completion.status = IBV_WC_REM_ACCESS_ERR;
  const std::string text = DescribeFailedCompletion(Verb::kRead, "1 (10.0.0.1:7471)", completion);
  EXPECT_EQ(text.rfind("RDMA READ to memory server 1 (10.0.0.1:7471) failed: ", 0), 0u) << text;
  EXPECT_NE(text.find("IBV_WC_REM_ACCESS_ERR"), std::string::npos) << text;
  EXPECT_EQ(CompletionStatusName(IBV_WC_RETRY_EXC_ERR), "IBV_WC_RETRY_EXC_ERR");
  EXPECT_EQ(CompletionStatusName(static_cast<ibv_wc_status>(99)), "status 99");
}

TEST(VerbsCluster, MismatchedServerListIsAConfigError) {
  Topology topology;
  topology.memory_servers = 2;
  topology.compute_servers = 2;
  VerbsOptions options;
  options.memory_servers = {"10.0.0.1:7471"};
  EXPECT_THROW(VerbsCluster(topology, options), ConfigError);
  options.memory_servers = {"a:1", "b:2"};
  options.compute_server = 2;
  EXPECT_THROW(VerbsCluster(topology, options), ConfigError);
}

TEST(VerbsCluster, NothingToConnectToFailsClearlyAndPromptly) {
  // Without RDMA the event channel or device is missing; with it, nothing
  // listens on port 1. Either way: a VerbError, within the connect timeout.
  Topology topology;
  topology.memory_servers = 1;
  topology.compute_servers = 1;
  topology.threads_per_compute_server = 1;
  VerbsOptions options;
  options.memory_servers = {"127.0.0.1:1"};
  options.connect_timeout_ms = 500;
  const auto start = std::chrono::steady_clock::now();
  try {
    VerbsCluster cluster(topology, options);
    FAIL() << "connected to nothing";
  } catch (const VerbError& error) {
    EXPECT_GT(std::string(error.what()).size(), 20u);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
}  // namespace dmbench::rdma::verbs
