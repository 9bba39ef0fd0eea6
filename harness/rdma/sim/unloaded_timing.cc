#include "harness/rdma/sim/unloaded_timing.h"

#include <algorithm>

namespace dmbench::rdma::sim {

SimTime WireTime(const NicProfile& profile, uint64_t payload_bytes) {
  const uint64_t packets =
      std::max<uint64_t>(1, (payload_bytes + profile.link_mtu_bytes - 1) / profile.link_mtu_bytes);
  return TransferTime(payload_bytes + packets * profile.link_packet_overhead_bytes,
                      profile.link_bandwidth_gbps);
}

SimTime PcieTransferTime(const NicProfile& profile, uint64_t bytes) {
  return TransferTime(bytes, profile.pcie_bandwidth_gbps);
}

SimTime MessageServiceTime(double mops) { return Nanoseconds(1000.0 / mops); }

ReadPath PathOf(const Topology& topology, uint32_t compute_server, uint32_t memory_server) {
  // Machine i carries memory server i and, when co-located, compute server i
  // behind one NIC.
  return topology.colocated && compute_server == memory_server ? ReadPath::kLoopback
                                                               : ReadPath::kRemote;
}

ReadPath SlowestPath(const Topology& topology) {
  const bool one_machine =
      topology.colocated && topology.memory_servers == 1 && topology.compute_servers == 1;
  return one_machine ? ReadPath::kLoopback : ReadPath::kRemote;
}

SimTime UnloadedReadTime(const NicProfile& profile, uint64_t bytes, ReadPath path) {
  const SimTime nic_latency = Nanoseconds(profile.nic_latency_ns);
  const SimTime link_latency = Nanoseconds(profile.link_latency_ns);
  // The request: posted by the client's CPU (one doorbell, one work
  // request), out through the requester's engine, over the link carrying no
  // payload, in through the responder's engine.
  SimTime at = Nanoseconds(profile.cpu_doorbell_ns) + Nanoseconds(profile.cpu_post_request_ns);
  at += MessageServiceTime(profile.nic_outbound_mops) + nic_latency;
  if (path == ReadPath::kRemote) {
    // Serialized at the sender and again at the receiver, latency between.
    at += 2 * WireTime(profile, 0) + link_latency;
  }
  at += MessageServiceTime(profile.nic_inbound_mops) + nic_latency;
  // The DMA read of host memory.
  at += Nanoseconds(profile.pcie_read_latency_ns) + PcieTransferTime(profile, bytes);
  // The response carries the bytes back.
  at += nic_latency;
  if (path == ReadPath::kRemote) at += 2 * WireTime(profile, bytes) + link_latency;
  at += nic_latency;
  // The client polls the completion and its coroutine is resumed.
  return at + Nanoseconds(profile.cpu_poll_completion_ns + profile.cpu_coroutine_switch_ns);
}

}  // namespace dmbench::rdma::sim
