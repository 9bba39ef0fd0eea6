// The NIC model's switchable mechanisms as a user sees them: the QP-to-unit
// mapping, profile overrides, per-operation CPU costs, and the generated
// calibration document.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/nic_model.h"
#include "harness/rdma/sim/nic_parameters.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/util/json_object_reader.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::DefaultProfile;

TEST(ProcessingUnits, EveryUnitServesSomeQueuePairOfThePapersCluster) {
  std::set<uint32_t> used;
  for (uint32_t thread = 0; thread < 176; ++thread) {
    const uint32_t unit = ProcessingUnitOf(thread, 0, 24);
    EXPECT_LT(unit, 24u);
    EXPECT_EQ(unit, ProcessingUnitOf(thread, 0, 24)) << "the mapping must be deterministic";
    used.insert(unit);
  }
  EXPECT_EQ(used.size(), 24u);
}

// A modulo mapping puts threads i and i + units on one unit everywhere, so
// threads of one role can sit on disjoint units; the hash must not.
TEST(ProcessingUnits, MappingIsAHashNotAModulo) {
  uint32_t like_modulo = 0;
  uint32_t same_unit_on_every_server = 0;
  for (uint32_t thread = 0; thread < 176; ++thread) {
    if (ProcessingUnitOf(thread, 0, 24) == thread % 24) ++like_modulo;
    bool same = true;
    for (uint16_t server = 1; server < 8; ++server) {
      same = same && ProcessingUnitOf(thread, server, 24) == ProcessingUnitOf(thread, 0, 24);
    }
    if (same) ++same_unit_on_every_server;
  }
  EXPECT_LT(like_modulo, 30u);
  EXPECT_LT(same_unit_on_every_server, 5u);
  EXPECT_EQ(ProcessingUnitOf(7, 3, 0), 0u) << "no units: everything maps to 0";
}

TEST(NicOverrides, ReplaceValuesAndSayWhereTheyCameFrom) {
  NicProfile profile = DefaultProfile();
  const nlohmann::json overrides = {{"processing_units", 0},
                                    {"atomic_bucket_arbitration", "random"}};
  JsonObjectReader reader(overrides, "backend.nic_overrides");
  profile.ApplyOverrides(reader, "a test");
  EXPECT_EQ(profile.processing_units, 0u);
  EXPECT_EQ(profile.atomic_bucket_arbitration, BucketArbitration::kRandom);
  EXPECT_EQ(profile.sources.at("processing_units"), "overridden by a test");
  EXPECT_EQ(profile.ToJson().at("atomic_bucket_arbitration"), "random");
}

std::string OverrideError(const nlohmann::json& overrides) {
  NicProfile profile = DefaultProfile();
  JsonObjectReader reader(overrides, "backend.nic_overrides");
  try {
    profile.ApplyOverrides(reader, "a test");
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(NicOverrides, BadOverridesNameTheFieldAndWhatIsAllowed) {
  EXPECT_TRUE(Mentions(OverrideError({{"processing_unit", 8}}),
                       "unknown key backend.nic_overrides.processing_unit"));
  EXPECT_TRUE(Mentions(OverrideError({{"processing_units", 8.5}}),
                       "backend.nic_overrides.processing_units: must be a whole number"));
  EXPECT_TRUE(Mentions(OverrideError({{"atomic_bucket_arbitration", "lifo"}}),
                       "must be one of {fifo, random}"));
  EXPECT_TRUE(Mentions(OverrideError({{"atomic_buckets", 1000}}), "must be a power of two"));
}

// Each CpuWork costs the thread its profile price; a price of 0 costs nothing.
TEST(CpuWork, ChargesThePricesOfTheProfile) {
  NicProfile profile = DefaultProfile();
  profile.cpu_crc_ns_per_byte = 0.5;
  profile.cpu_key_generation_ns = 30;
  profile.cpu_index_cache_lookup_ns = 0;
  auto cluster = test_support::MakeCluster(test_support::SmallTopology(1, 1, 1), profile);
  std::vector<uint64_t> elapsed;
  cluster->Run([&](Client& client) {
    const uint64_t start = client.NowNanoseconds();
    client.ChargeCpu(CpuWork::kCrcByte, 1024);
    elapsed.push_back(client.NowNanoseconds() - start);
    client.ChargeCpu(CpuWork::kKeyGeneration, 2);
    elapsed.push_back(client.NowNanoseconds() - start);
    client.ChargeCpu(CpuWork::kIndexCacheLookup, 1000);
    elapsed.push_back(client.NowNanoseconds() - start);
  });
  EXPECT_EQ(elapsed, (std::vector<uint64_t>{512, 572, 572}));
}

// A shared doorbell's lock serves rings in the order their threads get
// there: a thread whose CPU is busy for a while before it posts does not
// make a thread that posts meanwhile wait for it, although its ring was
// computed first.
TEST(Doorbells, ALaterRingThatArrivesFirstTakesTheFreeLock) {
  NicProfile profile = DefaultProfile();
  profile.doorbells_dedicated = 0;
  profile.doorbells_shared = 1;  // every QP on one locked register
  profile.cpu_doorbell_ns = 200;
  profile.cpu_doorbell_spinner_ns = 100;
  Topology topology = test_support::SmallTopology(1, 1, 1);
  topology.threads_per_compute_server = 2;
  constexpr uint64_t kBusyNs = 20'000;
  uint64_t alone_ns = 0;
  {
    auto cluster = test_support::MakeCluster(test_support::SmallTopology(1, 1, 1), profile);
    cluster->Run([&](Client& client) {
      uint64_t word = 0;
      const uint64_t start = client.NowNanoseconds();
      client.Read(GlobalAddress::Host(0, 0), &word, sizeof(word));
      alone_ns = client.NowNanoseconds() - start;
    });
  }
  auto cluster = test_support::MakeCluster(topology, profile);
  uint64_t quick_ns = 0;
  cluster->Run([&](Client& client) {
    uint64_t word = 0;
    if (client.location().thread == 0) {
      client.ChargeCpu(kBusyNs);  // posts only after this
      client.Read(GlobalAddress::Host(0, 0), &word, sizeof(word));
      return;
    }
    const uint64_t start = client.NowNanoseconds();
    client.Read(GlobalAddress::Host(0, 0), &word, sizeof(word));
    quick_ns = client.NowNanoseconds() - start;
  });
  ASSERT_GT(alone_ns, 0u);
  // At most the other thread's presence on the lock (one spinner) on top.
  EXPECT_LE(quick_ns, alone_ns + 100);
}

// configs/nic/NAME.md is generated from the profile; a profile edited
// without regenerating it fails here with the command to run.
TEST(CalibrationDocument, ShippedDocumentIsTheGeneratedOne) {
  const NicProfile connectx6 = NicProfile::Find("cx6-200g");
  std::ifstream shipped_connectx6(std::string(DMBENCH_SOURCE_DIR) + "/configs/nic/cx6-200g.md");
  std::stringstream text_connectx6;
  text_connectx6 << shipped_connectx6.rdbuf();
  EXPECT_EQ(text_connectx6.str(), connectx6.CalibrationMarkdown())
      << "regenerate it: dmbench nic --describe cx6-200g > configs/nic/cx6-200g.md";

  const NicProfile profile = DefaultProfile();
  std::ifstream shipped(std::string(DMBENCH_SOURCE_DIR) + "/configs/nic/cx5-100g.md");
  std::stringstream text;
  text << shipped.rdbuf();
  EXPECT_EQ(text.str(), profile.CalibrationMarkdown())
      << "regenerate it: dmbench nic --describe cx5-100g > configs/nic/cx5-100g.md";
  for (const NicParameter& parameter : NicParameters()) {
    std::string quoted(1, '`');
    quoted.append(parameter.key).push_back('`');
    EXPECT_TRUE(Mentions(text.str(), quoted)) << parameter.key;
  }
}

}  // namespace
}  // namespace dmbench::rdma::sim
