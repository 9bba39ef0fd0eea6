// A memory server (`dmbench serve`): registers its host memory and its
// on-chip lock area with the NIC, accepts compute servers' connections and
// hands them the regions' addresses and keys, then stays idle: every access
// is a one-sided verb, chunk allocation included (memory_layout.h).
#pragma once

#include <infiniband/verbs.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <ostream>
#include <set>
#include <string>

#include "harness/rdma/verbs/cm_connection.h"
#include "harness/rdma/verbs/endpoint.h"
#include "harness/rdma/verbs/memory_server_info.h"
#include "harness/rdma/verbs/rdma_device.h"

namespace dmbench::rdma::verbs {

struct ServeOptions {
  std::string listen = "0.0.0.0:7471";  // port 0: any free port (tests)
  uint64_t host_memory_mib = 1024;
  uint64_t on_chip_kib = 256;  // ConnectX-5 exposes 256 KiB of device memory
  std::string device;          // empty: the listen address's device, else the first active
  uint32_t ib_port = 0;
  bool huge_pages = false;
  // Return from Serve() once every compute server that connected has gone.
  bool exit_when_idle = false;
};

class MemoryServer {
 public:
  // Registers the memory and listens. Throws VerbError / ConfigError /
  // MemoryExhaustedError naming what failed.
  explicit MemoryServer(const ServeOptions& options);
  ~MemoryServer();
  MemoryServer(const MemoryServer&) = delete;
  MemoryServer& operator=(const MemoryServer&) = delete;

  // Accepts and tears down connections until `stop` is set (checked every
  // 100 ms) or, with exit_when_idle, the last connection closed.
  void Serve(const std::atomic<bool>& stop, std::ostream* log);

  // Deregisters the memory, as a restarted server's would be: compute
  // servers' later accesses fail with a remote access error. Tests use it
  // to check that such failures reach the user clearly.
  void RevokeRegistrations();

  uint16_t port() const;  // the bound port
  const MemoryServerInfo& info() const { return info_; }
  const RdmaDevice& device() const { return *device_; }
  // One line: where it listens, what is registered, where on-chip memory is.
  std::string Describe() const;

 private:
  void AllocateOnChip();
  void Accept(rdma_cm_id* id, const rdma_conn_param& request, std::ostream* log);

  // Checked and parsed before channel_ opens the device: keep them first.
  ServeOptions options_;
  Endpoint listen_;
  CmEventChannel channel_;
  rdma_cm_id* listener_ = nullptr;
  std::unique_ptr<RdmaDevice> device_;
  void* host_memory_ = nullptr;
  size_t host_bytes_ = 0;
  ibv_mr* host_region_ = nullptr;
  ibv_dm* device_memory_ = nullptr;
  void* on_chip_host_memory_ = nullptr;  // when device memory is not available
  ibv_mr* on_chip_region_ = nullptr;
  ibv_cq* cq_ = nullptr;  // the queue pairs' own: a memory server posts nothing
  MemoryServerInfo info_;
  std::set<rdma_cm_id*> connections_;  // accepted, not yet disconnected
};

}  // namespace dmbench::rdma::verbs
