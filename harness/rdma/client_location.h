// Where a client (one coroutine) runs, and what the cluster around it holds.
#pragma once

#include <cstdint>

namespace dmbench::rdma {

struct ClientLocation {
  uint32_t compute_server = 0;
  uint32_t thread = 0;     // within its compute server
  uint32_t coroutine = 0;  // within its thread
  uint32_t index = 0;      // dense over the whole cluster, for per-client state
};

// What index code may assume about remote memory.
struct ClusterShape {
  uint32_t memory_servers = 0;
  uint32_t compute_servers = 0;
  uint32_t clients = 0;
  uint64_t host_memory_bytes = 0;     // per memory server
  uint64_t on_chip_memory_bytes = 0;  // per memory server
  // Upstream rdma-core has no masked atomics; only the sim offers them.
  bool masked_compare_and_swap = false;
  // Every client runs on one thread (the sim's coroutines), so what the
  // clients of a compute server share needs no lock (util/optional_mutex.h).
  bool clients_share_one_thread = false;
  // A CAS that fails may still store its word (the value it read) back, so a
  // WRITE to that word from another QP that lands between its read and its
  // store is lost. Soft-RoCE's responder does so; a lock released by a WRITE
  // while other clients' CASes fail on it can then stay taken for ever, so
  // the indexes release by an atomic there (lock_options.h).
  bool failed_cas_may_overwrite_writes = false;
};

}  // namespace dmbench::rdma
