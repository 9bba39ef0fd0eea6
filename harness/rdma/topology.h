// The shape of a cluster: who is where, and how much memory each server has.
#pragma once

#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "harness/util/config_forward.h"

namespace dmbench::rdma {

struct Topology {
  uint32_t memory_servers = 8;
  uint32_t compute_servers = 8;
  uint32_t threads_per_compute_server = 22;
  uint32_t coroutines_per_thread = 1;
  // Machine i hosts memory server i and compute server i behind one NIC (the
  // Sherman paper's setup). Requires as many memory as compute servers.
  bool colocated = true;
  uint64_t host_memory_mib = 1024;  // per memory server
  static constexpr uint64_t kMaxHostMemoryMib = uint64_t{1} << 28;
  uint64_t chunk_mib = 8;  // unit of remote allocation (paper §4.2.4)

  uint32_t clients() const {
    return compute_servers * threads_per_compute_server * coroutines_per_thread;
  }
  uint32_t threads() const { return compute_servers * threads_per_compute_server; }
  uint64_t host_memory_bytes() const { return host_memory_mib << 20; }
  uint64_t chunk_bytes() const { return chunk_mib << 20; }

  // Throws ConfigError naming the field and the allowed values.
  void Validate() const;
  // The config fields of the topology section.
  static const ConfigFields<Topology>& Fields();
  // Reads the fields present in `reader` over the defaults, then validates.
  static Topology FromJson(JsonObjectReader& reader);
  nlohmann::json ToJson() const;
};

}  // namespace dmbench::rdma
