// Configs that can never make progress are refused when they are read, with
// the fields and the value that would work, before anything is built.
#include <gtest/gtest.h>

#include <string>

#include "harness/driver/run_config.h"
#include "harness/driver/run_feasibility.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/sim/unloaded_timing.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::driver {
namespace {

// The refusal of `document`, read as a run config, or "accepted".
std::string Refusal(const nlohmann::json& document) {
  try {
    LoadRunConfig(document, "config.json", {});
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

// The refusal of `document` with Sherman's lookups retried when they outlast
// the version wrap window: the window only matters for READs that are.
std::string WindowRefusal(nlohmann::json document) {
  document["index"]["wrap_retry"] = "lookups";
  return Refusal(document);
}

TEST(RunFeasibility, ShermanWithWideNodesNeedsAWiderWindow) {
  // The first example: one 64 KiB node takes about 17 us to READ on
  // an idle cx5-100g, beyond Sherman's 8 us window.
  const std::string message = WindowRefusal({{"index", {{"node_bytes", 65536}}}});
  EXPECT_TRUE(Mentions(message,
                       "config.json: index.wrap_window_us (8 us) is too short for "
                       "index.node_bytes (65536) on NIC profile cx5-100g"));
  EXPECT_TRUE(Mentions(message, "an unloaded READ of one node takes 17.3 us there"));
  EXPECT_TRUE(Mentions(message, "set index.wrap_window_us to at least 34.7"));
  EXPECT_TRUE(Mentions(message, "or index.node_bytes to at most"));
}

TEST(RunFeasibility, WindowShorterThanARoundTripIsRefused) {
  const std::string message = WindowRefusal({{"index", {{"wrap_window_us", 1}}}});
  EXPECT_TRUE(Mentions(message,
                       "index.wrap_window_us (1 us) is too short for index.node_bytes "
                       "(1024)"));
  EXPECT_TRUE(Mentions(message, "set index.wrap_window_us to at least 4.5"));
  // Not even the smallest node fits 1 us: no node size to suggest.
  EXPECT_EQ(message.find("index.node_bytes to at most"), std::string::npos) << message;
}

TEST(RunFeasibility, TheSuggestedValuesAreTheLimits) {
  for (const uint32_t node_bytes : {256u, 1024u, 9088u, 65536u}) {
    SCOPED_TRACE(node_bytes);
    const std::string message =
        WindowRefusal({{"index", {{"node_bytes", node_bytes}, {"wrap_window_us", 0.1}}}});
    const std::string marker = "set index.wrap_window_us to at least ";
    const size_t at = message.find(marker);
    ASSERT_NE(at, std::string::npos) << message;
    const double smallest = std::stod(message.substr(at + marker.size()));
    EXPECT_EQ(
        WindowRefusal({{"index", {{"node_bytes", node_bytes}, {"wrap_window_us", smallest}}}}),
        "accepted");
    EXPECT_NE(WindowRefusal(
                  {{"index", {{"node_bytes", node_bytes}, {"wrap_window_us", smallest - 0.1}}}}),
              "accepted");
  }
  // The suggested node size fits the window it was suggested for.
  const std::string message = WindowRefusal({{"index", {{"node_bytes", 65536}}}});
  const std::string marker = "at most ";
  const size_t at = message.find(marker);
  ASSERT_NE(at, std::string::npos) << message;
  const int largest = std::stoi(message.substr(at + marker.size()));
  EXPECT_EQ(WindowRefusal({{"index", {{"node_bytes", largest}}}}), "accepted");
  EXPECT_NE(WindowRefusal({{"index", {{"node_bytes", largest + 64}}}}), "accepted");
}

TEST(RunFeasibility, MemoryServersTooSmallForTheBulkloadAreRefused) {
  // The paper's 1 billion keys, 80% bulkloaded into leaves 80% full over 8
  // servers: 16 B entries need at least 1908 MiB on each of them.
  const nlohmann::json paper = {
      {"workload", {{"keys", 1000000000}}},
      {"topology", {{"memory_servers", 8}, {"compute_servers", 8}, {"colocated", true}}}};
  const std::string message = Refusal(paper);
  EXPECT_TRUE(Mentions(message,
                       "config.json: topology.host_memory_mib (1024 MiB per memory server) "
                       "cannot hold the bulkload: its 800000000 entries of 16 bytes"));
  EXPECT_TRUE(Mentions(message, "set topology.host_memory_mib to at least 1908 (4096 leaves room"))
      << message;
  nlohmann::json enough = paper;
  enough["topology"]["host_memory_mib"] = 1908;
  EXPECT_EQ(Refusal(enough), "accepted");
  enough["topology"]["host_memory_mib"] = 1907;
  EXPECT_NE(Refusal(enough), "accepted");
  // A fuller fill needs less.
  enough["index"] = {{"fill_factor", 1.0}};
  EXPECT_EQ(Refusal(enough), "accepted");
}

TEST(RunFeasibility, WindowFollowsTheProfileAndThePath) {
  // A slower link makes the same node slower to READ.
  EXPECT_NE(WindowRefusal({{"backend", {{"nic_overrides", {{"link_bandwidth_gbps", 1}}}}}}),
            "accepted");
  // One machine reads over loopback only, which skips the wire.
  const nlohmann::json window = {{"index", {{"node_bytes", 16384}, {"wrap_window_us", 10}}}};
  nlohmann::json one_machine = window;
  one_machine["topology"] = {{"memory_servers", 1}, {"compute_servers", 1}};
  EXPECT_NE(WindowRefusal(window), "accepted");
  EXPECT_EQ(WindowRefusal(one_machine), "accepted");
}

TEST(RunFeasibility, OnlyFourBitVersionsHaveAWindow) {
  EXPECT_EQ(WindowRefusal({{"index", {{"preset", "fgplus"}, {"wrap_window_us", 0.1}}}}),
            "accepted");
  EXPECT_EQ(WindowRefusal({{"index", {{"consistency", "cacheline"}, {"wrap_window_us", 0.1}}}}),
            "accepted");
  EXPECT_NE(WindowRefusal({{"index", {{"consistency", "node"}, {"wrap_window_us", 0.1}}}}),
            "accepted");
}

TEST(RunFeasibility, OnlyRetriedReadsNeedAWindow) {
  // The authors' code retries no READ (index.wrap_retry none, the default),
  // so no window is too short; retrying range batches too needs one as well.
  EXPECT_EQ(Refusal({{"index", {{"node_bytes", 65536}}}}), "accepted");
  EXPECT_EQ(Refusal({{"index", {{"wrap_window_us", 0.1}}}}), "accepted");
  EXPECT_TRUE(Mentions(Refusal({{"index", {{"node_bytes", 65536}, {"wrap_retry", "all"}}}}),
                       "or index.wrap_retry to 'none'"));
}

TEST(RunFeasibility, IndexOptionsAreCheckedAgainstTheBackendWhenRead) {
  // Both used to surface only once the cluster was built.
  EXPECT_TRUE(Mentions(Refusal({{"index", {{"hierarchical", false}}}}),
                       "config.json: index.handover: locks are handed over through the local "
                       "lock table"));
  EXPECT_TRUE(Mentions(
      Refusal({{"index", {{"key_bytes", 1024}, {"value_bytes", 1024}, {"node_bytes", 256}}}}),
      "index.node_bytes: 256 bytes hold only 0 leaf entries"));
  EXPECT_TRUE(Mentions(Refusal({{"backend", {{"nic_overrides", {{"on_chip_memory_kib", 0}}}}}}),
                       "index.onchip: the global lock table needs"));
}

}  // namespace
}  // namespace dmbench::driver
