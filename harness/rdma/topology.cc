#include "harness/rdma/topology.h"

#include <string>

#include "harness/rdma/errors.h"
#include "harness/rdma/memory_layout.h"
#include "harness/util/config_fields.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::rdma {

namespace {
// Memory-server ids are 16 bits in a GlobalAddress.
constexpr uint32_t kMaxServers = 65535;
// Keeps a simulated cluster inside one machine's memory and a client index
// inside 32 bits with room to spare.
constexpr uint32_t kMaxClients = 1u << 20;
}  // namespace

void Topology::Validate() const {
  auto fail = [](const std::string& what) { throw ConfigError("topology." + what); };
  if (memory_servers < 1 || memory_servers > kMaxServers) {
    fail("memory_servers: must be in [1, 65535], got " + std::to_string(memory_servers));
  }
  if (compute_servers < 1 || compute_servers > kMaxServers) {
    fail("compute_servers: must be in [1, 65535], got " + std::to_string(compute_servers));
  }
  if (threads_per_compute_server < 1) fail("threads_per_compute_server: must be at least 1");
  if (coroutines_per_thread < 1) fail("coroutines_per_thread: must be at least 1");
  if (uint64_t{compute_servers} * threads_per_compute_server * coroutines_per_thread >
      kMaxClients) {
    fail(
        "clients: compute_servers x threads_per_compute_server x coroutines_per_thread must be "
        "at most " +
        std::to_string(kMaxClients));
  }
  if (colocated && memory_servers != compute_servers) {
    fail("colocated: machine i hosts memory server i and compute server i, so memory_servers (" +
         std::to_string(memory_servers) + ") must equal compute_servers (" +
         std::to_string(compute_servers) + "); set colocated to false otherwise");
  }
  if (chunk_mib < 1) fail("chunk_mib: must be at least 1");
  if (host_memory_bytes() < MemoryLayout::kFirstChunkOffset + chunk_bytes()) {
    fail("host_memory_mib: must hold the 1 MiB metadata area and at least one chunk of " +
         std::to_string(chunk_mib) + " MiB, got " + std::to_string(host_memory_mib) + " MiB");
  }
}

const ConfigFields<Topology>& Topology::Fields() {
  static const ConfigFields<Topology> fields = [] {
    using T = Topology;
    ConfigFields<Topology> list;
    list.Unsigned("memory_servers", &T::memory_servers, 1, kMaxServers, "memory servers")
        .Unsigned("compute_servers", &T::compute_servers, 1, kMaxServers, "compute servers")
        .Unsigned("threads_per_compute_server", &T::threads_per_compute_server, 1, kMaxClients,
                  "client threads on each compute server")
        .Unsigned("coroutines_per_thread", &T::coroutines_per_thread, 1, 64,
                  "clients (coroutines) per thread")
        .Bool("colocated", &T::colocated,
              "machine i hosts memory server i and compute server i behind one NIC")
        .Unsigned("host_memory_mib", &T::host_memory_mib, 1, T::kMaxHostMemoryMib,
                  "host memory per memory server, MiB")
        .Unsigned("chunk_mib", &T::chunk_mib, 1, 1024,
                  "unit of remote allocation, MiB (paper §4.2.4)");
    return list;
  }();
  return fields;
}

Topology Topology::FromJson(JsonObjectReader& reader) {
  Topology topology;
  Fields().Read(reader, topology);
  reader.RejectUnknownKeys();
  topology.Validate();
  return topology;
}

nlohmann::json Topology::ToJson() const { return Fields().Write(*this); }

}  // namespace dmbench::rdma
