// How a compute-server process reaches the memory servers of a real cluster.
// Part of a run config's "backend" section when its type is "verbs".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/util/config_forward.h"

namespace dmbench::rdma::verbs {

struct VerbsOptions {
  // "host:port" of each memory server's `dmbench serve`; memory server i is
  // the i-th entry, in every compute-server process alike.
  std::vector<std::string> memory_servers;
  // This process's compute server, in [0, topology.compute_servers).
  uint32_t compute_server = 0;
  // The RDMA device by name ("mlx5_0"); empty: the device the route to the
  // first memory server goes through.
  std::string device;
  uint32_t ib_port = 0;  // 0: the port the route goes through
  // The local GID (and so the source address) the connections use; -1: the
  // one rdma_cm picks for the route.
  int32_t gid_index = -1;
  uint32_t connect_timeout_ms = 5000;
  // A work request not completed by then fails the run: a peer that stopped
  // answering must not hang it.
  uint32_t completion_timeout_ms = 10000;
  // How long a compute server waits for the others at a barrier (bulkload
  // by compute server 0 happens between two of them).
  uint32_t barrier_timeout_ms = 600000;

  // The config fields of a verbs backend section (beside its "type").
  static const ConfigFields<VerbsOptions>& Fields();
};

}  // namespace dmbench::rdma::verbs
