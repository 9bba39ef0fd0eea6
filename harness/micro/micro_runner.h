// What the substrate microbenchmarks share: a fresh simulated cluster per
// measured point, a warm-up followed by a measured window of simulated time,
// per-client latency recording, and the simulator's own speed.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/rdma/client.h"
#include "harness/rdma/sim/nic_profile.h"
#include "harness/rdma/sim/sim_cluster.h"
#include "harness/rdma/substrate_options.h"
#include "harness/rdma/topology.h"
#include "harness/stats/log_linear_histogram.h"

namespace dmbench::micro {

struct MicroOptions {
  rdma::sim::NicProfile profile;
  uint64_t seed = 1;
  double warmup_us = 20;
  double measure_us = 200;
  rdma::SubstrateOptions substrate;  // the substrate's techniques, all off by default
  // Whose operations are latency samples: every client's (unset), or only
  // those of one compute server, as Sherman's benchmark driver prints the
  // percentiles of node 0's threads alone (test/benchmark.cpp, cal_latency
  // on node 0). Throughput always counts every client.
  std::optional<uint32_t> latency_compute_server;
};

// Completed operations of one point: those that finished inside the
// measured window.
struct PointResult {
  uint64_t operations = 0;
  uint64_t payload_bytes = 0;
  LogLinearHistogram latency_ns;
  rdma::sim::SimRunStats simulator;
  double measured_seconds = 0;

  double mops() const { return operations / measured_seconds / 1e6; }
  double gigabytes_per_second() const { return payload_bytes / measured_seconds / 1e9; }
  nlohmann::json ToJson() const;
};

// One operation of a client: returns the operations and payload bytes it
// completed (a batch of N verbs is N operations).
struct Completed {
  uint64_t operations;
  uint64_t payload_bytes;
};
using Operation = std::function<Completed(rdma::Client&, Random&)>;

// Runs `operation` in a loop on every client of a fresh cluster until the
// window closes.
PointResult MeasurePoint(const rdma::Topology& topology, const MicroOptions& options,
                         const Operation& operation);

// The microbenchmarks' cluster: `compute_servers` x 22 threads x 1 coroutine
// into `memory_servers`, not co-located (clients and servers apart, as in
// the paper's Figs. 2 and 3; Fig. 16's benchmark co-locates them), small
// memory.
rdma::Topology MicroTopology(uint32_t compute_servers, uint32_t memory_servers = 1);

// A point's JSON row with its parameters and p50/p99 in us for the table.
nlohmann::json PointRow(const PointResult& point, const nlohmann::json& parameters);

// The table (title, columns of the rows, simulator speed) and the
// benchmark's JSON document, shared by every microbenchmark.
nlohmann::json FinishBenchmark(const std::string& benchmark, const std::string& title,
                               const std::vector<std::string>& columns, nlohmann::json parameters,
                               const MicroOptions& options, const std::vector<nlohmann::json>& rows,
                               const std::vector<PointResult>& points, std::ostream& table);

// A readable table: `columns` are keys of each row object.
std::string FormatTable(const std::vector<nlohmann::json>& rows,
                        const std::vector<std::string>& columns);

// A line on the simulator's speed over all points of a benchmark; every
// benchmark prints it.
std::string SimulatorSpeedLine(const std::vector<PointResult>& points);
nlohmann::json SimulatorSpeedJson(const std::vector<PointResult>& points);

}  // namespace dmbench::micro
