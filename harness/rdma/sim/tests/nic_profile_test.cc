// Loading NIC profiles: the shipped one, and every way a profile can be wrong.
// Users meet these errors at the prompt, so each must name the field.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/nic_parameters.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/rdma/sim/tests/sim_test_support.h"
#include "harness/util/json_object_reader.h"
#include "harness/util/tests/mentions.h"
#include "harness/util/tests/scratch_file.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::NicProfilePath;

nlohmann::json ShippedProfile() { return ReadJsonFile(NicProfilePath("cx5-100g")); }

// The message of the ConfigError that loading `document` throws.
std::string LoadError(const std::string& name, const nlohmann::json& document) {
  const std::string path = WriteScratchFile(name + ".json", document.dump(2));
  try {
    NicProfile::Load(path);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(NicProfile, ShippedProfileLoadsWithItsValues) {
  const NicProfile profile = NicProfile::Load(NicProfilePath("cx5-100g"));
  EXPECT_EQ(profile.name, "cx5-100g");
  EXPECT_EQ(profile.cpu_post_request_ns, 40);
  EXPECT_EQ(profile.cpu_doorbell_ns, 80);
  EXPECT_EQ(profile.cpu_poll_completion_ns, 40);
  EXPECT_EQ(profile.cpu_wakeup_ns, 41);
  EXPECT_EQ(profile.cpu_lock_spinner_ns, 36);
  EXPECT_EQ(profile.link_bandwidth_gbps, 100);
  EXPECT_EQ(profile.link_latency_ns, 350);
  EXPECT_EQ(profile.link_packet_overhead_bytes, 30u);
  EXPECT_EQ(profile.link_mtu_bytes, 4096u);
  EXPECT_EQ(profile.nic_latency_ns, 150);
  EXPECT_EQ(profile.nic_outbound_mops, 110);
  EXPECT_EQ(profile.nic_inbound_mops, 110);
  EXPECT_EQ(profile.pcie_read_latency_ns, 450);
  EXPECT_EQ(profile.pcie_write_latency_ns, 100);
  EXPECT_EQ(profile.pcie_bandwidth_gbps, 110);
  EXPECT_EQ(profile.on_chip_memory_kib, 256u);
  EXPECT_EQ(profile.on_chip_access_ns, 50);
  EXPECT_EQ(profile.atomic_buckets, 4096u);
  EXPECT_EQ(profile.atomic_on_chip_ns, 150);
  EXPECT_EQ(profile.processing_units, 24u);
  EXPECT_EQ(profile.atomic_parking_slots, 80u);
  EXPECT_EQ(profile.cacheline_bytes, 64u);
  EXPECT_EQ(profile.dma_read_order, DmaOrder::kAscending);
}

// The file round-trips through the temp-file path the error tests use, so a
// failure below is the edit's doing, not the plumbing's.
TEST(NicProfile, UnmodifiedCopyLoads) {
  const std::string path = WriteScratchFile("copy.json", ShippedProfile().dump());
  EXPECT_EQ(NicProfile::Load(path).link_latency_ns, 350);
}

TEST(NicProfile, OtherDmaOrdersLoad) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["dma_read_order"]["value"] = "descending";
  EXPECT_EQ(NicProfile::Load(WriteScratchFile("descending.json", document.dump())).dma_read_order,
            DmaOrder::kDescending);
  document["parameters"]["dma_read_order"]["value"] = "random";
  EXPECT_EQ(NicProfile::Load(WriteScratchFile("random.json", document.dump())).dma_read_order,
            DmaOrder::kRandom);
  EXPECT_STREQ(DmaOrderName(DmaOrder::kRandom), "random");
}

TEST(NicProfile, MissingParameterIsNamed) {
  nlohmann::json document = ShippedProfile();
  document["parameters"].erase("link_latency_ns");
  const std::string message = LoadError("missing", document);
  EXPECT_TRUE(Mentions(message, "parameters.link_latency_ns: is required"));
  EXPECT_TRUE(Mentions(message, "NIC profile "));
}

// A mechanism's parameters may be left out of a profile, and then switch
// the mechanism off, so that a profile written before the mechanism existed
// keeps its behaviour; what a profile leaves out is said in its sources.
TEST(NicProfile, LeftOutMechanismsAreOff) {
  nlohmann::json document = ShippedProfile();
  for (const NicParameter& parameter : NicParameters()) {
    if (parameter.has_default) document["parameters"].erase(std::string(parameter.key));
  }
  const NicProfile profile =
      NicProfile::Load(WriteScratchFile("mechanisms_off.json", document.dump(2)));
  EXPECT_EQ(profile.processing_units, 0u);
  EXPECT_EQ(profile.atomic_parking_slots, 0u);
  EXPECT_EQ(profile.cpu_lock_spinner_ns, 0.0);
  EXPECT_EQ(profile.cpu_index_cache_lookup_ns, 0.0);
  EXPECT_EQ(profile.dma_read_order, DmaOrder::kAscending);
  EXPECT_EQ(profile.atomic_bucket_arbitration, BucketArbitration::kFifo);
  EXPECT_EQ(profile.sources.at("processing_units"), kDefaultSource);
  // The shipped profiles give every parameter with its source.
  for (const char* name : {"cx5-100g", "cx6-200g"}) {
    const NicProfile shipped = NicProfile::Load(NicProfilePath(name));
    for (const NicParameter& parameter : NicParameters()) {
      EXPECT_NE(shipped.sources.at(std::string(parameter.key)), kDefaultSource)
          << name << ": " << parameter.key;
    }
  }
}

TEST(NicProfile, ParameterWithoutSourceIsNamed) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["pcie_read_latency_ns"].erase("source");
  EXPECT_TRUE(Mentions(LoadError("no_source", document),
                       "parameters.pcie_read_latency_ns.source: is required"));

  document = ShippedProfile();
  document["parameters"]["dma_read_order"].erase("source");
  EXPECT_TRUE(Mentions(LoadError("no_order_source", document),
                       "parameters.dma_read_order.source: is required"));
}

TEST(NicProfile, ParameterWithoutValueIsNamed) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["link_latency_ns"].erase("value");
  EXPECT_TRUE(
      Mentions(LoadError("no_value", document), "parameters.link_latency_ns.value: is required"));
}

// "All parameters are required" (nic_profile.h): dma_read_order must not
// silently fall back to ascending when its value is left out.
TEST(NicProfile, DmaReadOrderWithoutValueIsNamed) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["dma_read_order"].erase("value");
  EXPECT_TRUE(Mentions(LoadError("no_order_value", document), "parameters.dma_read_order.value"));
}

TEST(NicProfile, BareNumberInsteadOfValueAndSourceIsNamed) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["link_latency_ns"] = 350;
  EXPECT_TRUE(Mentions(LoadError("bare", document),
                       "parameters.link_latency_ns: must be a JSON object, got 350"));
}

TEST(NicProfile, UnknownTopLevelKeyIsNamedWithTheAllowedOnes) {
  nlohmann::json document = ShippedProfile();
  document["paramters"] = nlohmann::json::object();
  const std::string message = LoadError("unknown_top", document);
  EXPECT_TRUE(Mentions(message, "unknown key paramters"));
  EXPECT_TRUE(Mentions(message, "allowed here: description, name, parameters"));
}

TEST(NicProfile, UnknownParameterIsNamedWithTheAllowedOnes) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["link_latency_us"] = {{"value", 1}, {"source", "typo"}};
  const std::string message = LoadError("unknown_parameter", document);
  EXPECT_TRUE(Mentions(message, "unknown key parameters.link_latency_us"));
  EXPECT_TRUE(Mentions(message, "link_latency_ns"));
  EXPECT_TRUE(Mentions(message, "dma_read_order"));
}

TEST(NicProfile, UnknownKeyInsideParameterIsNamedWithTheAllowedOnes) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["link_latency_ns"]["unit"] = "ns";
  EXPECT_TRUE(Mentions(LoadError("unknown_inner", document),
                       "unknown key parameters.link_latency_ns.unit (allowed here: source, "
                       "value)"));

  document = ShippedProfile();
  document["parameters"]["dma_read_order"]["note"] = "x";
  EXPECT_TRUE(Mentions(LoadError("unknown_order_inner", document),
                       "unknown key parameters.dma_read_order.note (allowed here: source, "
                       "value)"));
}

TEST(NicProfile, AtomicBucketsMustBeAPowerOfTwo) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["atomic_buckets"]["value"] = 1000;
  EXPECT_TRUE(Mentions(LoadError("buckets", document),
                       "parameters.atomic_buckets.value: must be a power of two, got 1000"));
}

TEST(NicProfile, CachelineMustBeAPowerOfTwo) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["cacheline_bytes"]["value"] = 48;
  EXPECT_TRUE(Mentions(LoadError("cacheline", document),
                       "parameters.cacheline_bytes.value: must be a power of two, got 48"));
}

TEST(NicProfile, WholeParameterMustBeWhole) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["atomic_buckets"]["value"] = 4096.5;
  EXPECT_TRUE(Mentions(LoadError("fraction", document),
                       "parameters.atomic_buckets.value: must be a whole number"));
}

TEST(NicProfile, BadDmaReadOrderListsTheAllowedValues) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["dma_read_order"]["value"] = "sideways";
  EXPECT_TRUE(Mentions(LoadError("order", document),
                       "parameters.dma_read_order.value: must be one of {ascending, "
                       "descending, random}, got \"sideways\""));
}

TEST(NicProfile, NegativeValueIsNamedWithTheRange) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["link_latency_ns"]["value"] = -5;
  const std::string message = LoadError("negative", document);
  EXPECT_TRUE(Mentions(message, "parameters.link_latency_ns.value: must be a number in [0, "));
  EXPECT_TRUE(Mentions(message, "got -5"));

  document = ShippedProfile();
  document["parameters"]["on_chip_memory_kib"]["value"] = -1;
  EXPECT_TRUE(Mentions(LoadError("negative_whole", document),
                       "parameters.on_chip_memory_kib.value: must be a number in [0, "));
}

TEST(NicProfile, ValueOfWrongTypeIsNamed) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["nic_latency_ns"]["value"] = "150";
  EXPECT_TRUE(Mentions(LoadError("string_value", document),
                       "parameters.nic_latency_ns.value: must be a number"));
}

TEST(NicProfile, MissingNameIsNamed) {
  nlohmann::json document = ShippedProfile();
  document.erase("name");
  EXPECT_TRUE(Mentions(LoadError("no_name", document), "name: is required: a string"));
}

TEST(NicProfile, ErrorsNameTheFile) {
  nlohmann::json document = ShippedProfile();
  document["parameters"]["atomic_buckets"]["value"] = 1000;
  const std::string path = WriteScratchFile("named.json", document.dump());
  try {
    NicProfile::Load(path);
    FAIL() << "loaded a profile with 1000 atomic buckets";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), "NIC profile " + path + ": parameters.atomic_buckets"));
  }
}

TEST(NicProfile, InvalidJsonNamesTheFile) {
  const std::string path = WriteScratchFile("invalid.json", "{\"name\": \"x\", \"parameters\": {");
  try {
    NicProfile::Load(path);
    FAIL() << "loaded truncated JSON";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), path + ": not valid JSON"));
  }
}

TEST(NicProfile, MissingFileIsNamed) {
  const std::string path = ScratchPath("no_such_profile.json");
  try {
    NicProfile::Load(path);
    FAIL() << "loaded a file that does not exist";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), "cannot open " + path));
  }
}

TEST(NicProfile, ProfileMustBeAnObject) {
  EXPECT_TRUE(Mentions(LoadError("array", nlohmann::json::array({1, 2})),
                       "the document: must be a JSON object"));
}

// Found by `dmbench fuzz`: a name too long for the file system escaped as
// std::filesystem_error, quoting the whole name.
TEST(NicProfile, NameTooLongForAFileIsUnknown) {
  try {
    NicProfile::Find(std::string(100000, 'n'));
    FAIL() << "found a profile";
  } catch (const ConfigError& error) {
    EXPECT_TRUE(Mentions(error.what(), "unknown NIC profile 'nnnn"));
    EXPECT_LT(std::string(error.what()).size(), 500u);
  }
}

}  // namespace
}  // namespace dmbench::rdma::sim
