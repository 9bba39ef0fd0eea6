// What a verb costs on an idle simulated fabric, from the NIC profile alone:
// the prices of the NIC model's stages (wire, PCIe transfer, message
// engines) and the time a client measures for one READ when nothing else is
// in flight. Config validation uses it to refuse a run that can never make
// progress (a version wrap window shorter than one unloaded node READ), and
// a failing run uses it to tell overload apart from impossibility.
//
// The stage prices are the NIC model's own: nic_model.cc prices its stages
// with these functions, and UnloadedTiming.ReadMatchesTheSimulatedFabric
// checks the whole unloaded READ against the fabric, READ for READ.
#pragma once

#include <cstdint>

#include "harness/rdma/sim/nic_profile.h"
#include "harness/rdma/sim/sim_time.h"
#include "harness/rdma/topology.h"

namespace dmbench::rdma::sim {

// Serializing `payload_bytes` onto the link: the payload plus a header per
// MTU-sized packet (at least one packet, for a request that carries no data).
SimTime WireTime(const NicProfile& profile, uint64_t payload_bytes);
// Moving `bytes` between the NIC and host memory over PCIe.
SimTime PcieTransferTime(const NicProfile& profile, uint64_t bytes);
// One request through a message engine of `mops` million requests per second.
SimTime MessageServiceTime(double mops);

// How a READ reaches its memory server: over the network, or within one
// machine whose memory and compute server share a NIC (no wire).
enum class ReadPath { kRemote, kLoopback };

// The path a READ from compute server `compute_server` to memory server
// `memory_server` takes in `topology`.
ReadPath PathOf(const Topology& topology, uint32_t compute_server, uint32_t memory_server);
// The slowest path any client of `topology` has to some memory server.
ReadPath SlowestPath(const Topology& topology);

// A READ of `bytes` from host memory on an idle fabric, as the reading client
// measures it (its clock before posting to its clock after resuming): the
// posting CPU, both message engines, NIC pipelines, wire and link latency
// each way, the PCIe read, and the completion poll and coroutine switch.
SimTime UnloadedReadTime(const NicProfile& profile, uint64_t bytes, ReadPath path);

}  // namespace dmbench::rdma::sim
