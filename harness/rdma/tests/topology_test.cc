// Topology validation: every bad field is named as topology.<field>.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/rdma/topology.h"
#include "harness/util/json_object_reader.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::rdma {
namespace {

std::string ValidateError(const std::function<void(Topology&)>& edit) {
  Topology topology;
  edit(topology);
  try {
    topology.Validate();
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

std::string FromJsonError(const nlohmann::json& document) {
  try {
    JsonObjectReader reader(document, "topology");
    Topology::FromJson(reader);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Topology, DefaultsAreValid) {
  const Topology topology;
  EXPECT_NO_THROW(topology.Validate());
  EXPECT_EQ(topology.clients(), 8u * 22 * 1);
  EXPECT_EQ(topology.threads(), 8u * 22);
  EXPECT_EQ(topology.host_memory_bytes(), uint64_t{1024} << 20);
  EXPECT_EQ(topology.chunk_bytes(), uint64_t{8} << 20);
}

TEST(Topology, ValidateRejectsZeroServers) {
  EXPECT_EQ(ValidateError([](Topology& t) { t.memory_servers = 0; }),
            "topology.memory_servers: must be in [1, 65535], got 0");
  EXPECT_EQ(ValidateError([](Topology& t) { t.compute_servers = 0; }),
            "topology.compute_servers: must be in [1, 65535], got 0");
  EXPECT_TRUE(Mentions(ValidateError([](Topology& t) {
                         t.colocated = false;
                         t.memory_servers = 70000;
                       }),
                       "topology.memory_servers: must be in [1, 65535], got 70000"));
}

TEST(Topology, ValidateRejectsZeroThreadsOrCoroutines) {
  EXPECT_TRUE(Mentions(ValidateError([](Topology& t) { t.threads_per_compute_server = 0; }),
                       "topology.threads_per_compute_server: must be at least 1"));
  EXPECT_TRUE(Mentions(ValidateError([](Topology& t) { t.coroutines_per_thread = 0; }),
                       "topology.coroutines_per_thread: must be at least 1"));
}

TEST(Topology, ValidateRejectsTooManyClients) {
  EXPECT_TRUE(Mentions(ValidateError([](Topology& t) { t.coroutines_per_thread = 10000; }),
                       "topology.clients: compute_servers x threads_per_compute_server x "
                       "coroutines_per_thread must be at most 1048576"));
}

TEST(Topology, ValidateRejectsColocationWithUnequalCounts) {
  const std::string error = ValidateError([](Topology& t) {
    t.memory_servers = 4;
    t.compute_servers = 6;
  });
  EXPECT_TRUE(Mentions(error, "topology.colocated:"));
  EXPECT_TRUE(Mentions(error, "memory_servers (4) must equal compute_servers (6)"));
  EXPECT_TRUE(Mentions(error, "set colocated to false"));
  EXPECT_EQ(ValidateError([](Topology& t) {
              t.memory_servers = 4;
              t.compute_servers = 6;
              t.colocated = false;
            }),
            "no error");
}

TEST(Topology, ValidateRejectsMemoryThatHoldsNoChunk) {
  const std::string error = ValidateError([](Topology& t) {
    t.host_memory_mib = 8;
    t.chunk_mib = 8;  // 8 MiB leave no room beside the 64 KiB metadata area
  });
  EXPECT_TRUE(Mentions(error, "topology.host_memory_mib:"));
  EXPECT_TRUE(Mentions(error, "at least one chunk of 8 MiB, got 8 MiB"));
  EXPECT_EQ(ValidateError([](Topology& t) {
              t.host_memory_mib = 9;
              t.chunk_mib = 8;
            }),
            "no error");
  EXPECT_TRUE(Mentions(ValidateError([](Topology& t) { t.chunk_mib = 0; }),
                       "topology.chunk_mib: must be at least 1"));
}

TEST(Topology, FromJsonReadsFieldsOverTheDefaults) {
  const nlohmann::json document = {{"memory_servers", 2},   {"compute_servers", 3},
                                   {"colocated", false},    {"coroutines_per_thread", 4},
                                   {"host_memory_mib", 64}, {"chunk_mib", 2}};
  JsonObjectReader reader(document, "topology");
  const Topology topology = Topology::FromJson(reader);
  EXPECT_EQ(topology.memory_servers, 2u);
  EXPECT_EQ(topology.compute_servers, 3u);
  EXPECT_FALSE(topology.colocated);
  EXPECT_EQ(topology.coroutines_per_thread, 4u);
  EXPECT_EQ(topology.threads_per_compute_server, 22u);  // default kept
  EXPECT_EQ(topology.host_memory_mib, 64u);
  EXPECT_EQ(topology.chunk_mib, 2u);
}

TEST(Topology, FromJsonRejectsUnknownKeyListingTheAllowedOnes) {
  const std::string error = FromJsonError({{"memory_servers", 8}, {"memory_server", 8}});
  EXPECT_TRUE(Mentions(error,
                       "unknown key topology.memory_server (allowed here: chunk_mib, "
                       "colocated, compute_servers, coroutines_per_thread, "
                       "host_memory_mib, memory_servers, threads_per_compute_server)"));
}

TEST(Topology, FromJsonRejectsWrongTypes) {
  EXPECT_EQ(FromJsonError({{"memory_servers", "8"}}),
            "topology.memory_servers: must be an integer in [1, 65535], got \"8\"");
  EXPECT_EQ(FromJsonError({{"compute_servers", 2.5}}),
            "topology.compute_servers: must be an integer in [1, 65535], got 2.5");
  EXPECT_EQ(FromJsonError({{"colocated", "yes"}}),
            "topology.colocated: must be true or false, got \"yes\"");
  EXPECT_TRUE(Mentions(FromJsonError({{"host_memory_mib", -1}}),
                       "topology.host_memory_mib: must be an integer in [1, "));
}

TEST(Topology, FromJsonRejectsOutOfRangeAndInvalidCombinations) {
  EXPECT_EQ(FromJsonError({{"memory_servers", 0}}),
            "topology.memory_servers: must be an integer in [1, 65535], got 0");
  EXPECT_EQ(FromJsonError({{"coroutines_per_thread", 65}}),
            "topology.coroutines_per_thread: must be an integer in [1, 64], got 65");
  // Each field is fine alone; Validate() catches the combination.
  EXPECT_TRUE(Mentions(FromJsonError({{"memory_servers", 2}}),
                       "memory_servers (2) must equal compute_servers (8)"));
  EXPECT_TRUE(Mentions(FromJsonError({{"host_memory_mib", 1}, {"chunk_mib", 1}}),
                       "topology.host_memory_mib:"));
}

}  // namespace
}  // namespace dmbench::rdma
