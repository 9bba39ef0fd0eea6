#include "harness/driver/run_feasibility.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "harness/driver/backend_fabrics.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/sim/sim_cluster.h"
#include "harness/rdma/sim/unloaded_timing.h"
#include "indexes/blink/tree_options.h"

namespace dmbench::driver {

namespace {

// A number as the config would spell it ("8", "34.7", "0.8").
std::string Shortest(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

// The shortest window, in whole tenths of a microsecond, that holds
// kWrapWindowReads unloaded READs of `node_bytes`.
double WindowNeededUs(const rdma::sim::NicProfile& profile, uint32_t node_bytes,
                      rdma::sim::ReadPath path) {
  const double read_ns =
      rdma::sim::ToNanoseconds(rdma::sim::UnloadedReadTime(profile, node_bytes, path));
  return std::ceil(kWrapWindowReads * read_ns / 100) / 10;
}

// The largest node size (a multiple of 64) whose READs `window_us` holds, or
// 0 when not even the smallest node fits.
uint32_t LargestNodeFor(const rdma::sim::NicProfile& profile, double window_us,
                        rdma::sim::ReadPath path) {
  for (uint32_t bytes = 65536; bytes >= 256; bytes -= 64) {
    if (WindowNeededUs(profile, bytes, path) <= window_us) return bytes;
  }
  return 0;
}

void CheckWrapWindow(const RunConfig& config, const rdma::sim::NicProfile& profile) {
  const indexes::TreeOptions& index = config.index;
  if (!indexes::HasShortVersions(index.consistency)) return;  // no wrap-around to guard
  if (index.wrap_retry == indexes::WrapRetry::kNone) return;  // no READ is retried
  const rdma::sim::ReadPath path = rdma::sim::SlowestPath(config.topology);
  const double needed_us = WindowNeededUs(profile, index.node_bytes, path);
  if (index.wrap_window_us >= needed_us) return;
  const double read_us =
      rdma::sim::ToNanoseconds(rdma::sim::UnloadedReadTime(profile, index.node_bytes, path)) / 1000;
  char read[32];
  std::snprintf(read, sizeof(read), "%.3g", read_us);
  std::string remedy = "set index.wrap_window_us to at least " + Shortest(needed_us);
  if (const uint32_t largest = LargestNodeFor(profile, index.wrap_window_us, path)) {
    remedy += ", or index.node_bytes to at most " + std::to_string(largest);
  }
  throw ConfigError(
      "index.wrap_window_us (" + Shortest(index.wrap_window_us) +
      " us) is too short for index.node_bytes (" + std::to_string(index.node_bytes) +
      ") on NIC profile " + profile.name + ": an unloaded READ of one node takes " + read +
      " us there, and the 4-bit version check (index.consistency " +
      indexes::ConsistencyName(index.consistency) + ") needs a window of at least " +
      Shortest(kWrapWindowReads) +
      " such READs (the READ and one more queued ahead of it), or it retries every READ and "
      "the run never makes progress; " +
      remedy + ", or index.wrap_retry to 'none'");
}

// The bulkload fills each leaf to at most fill_factor of its entries and
// spreads the leaves over the memory servers, so the bulkloaded entries
// divided by the fill factor and by the servers are a lower bound of what the
// fullest memory server holds (node headers, internal nodes and inserts come
// on top). Below it a run fails only once the bulkload has exhausted a server,
// which at the paper's scale is most of a minute in.
void CheckHostMemory(const RunConfig& config) {
  const long double entry_bytes = config.index.key_bytes + config.index.value_bytes;
  const long double per_server = static_cast<long double>(config.workload.BulkloadCount()) *
                                 entry_bytes / config.fill_factor / config.topology.memory_servers;
  const long double capacity = static_cast<long double>(config.topology.host_memory_bytes());
  if (per_server <= capacity) return;
  const uint64_t max_mib = rdma::Topology::kMaxHostMemoryMib;
  const uint64_t needed_mib =
      static_cast<uint64_t>(std::min<long double>(std::ceil(per_server / (1 << 20)), 1e18L));
  uint64_t suggested_mib = 1;
  while (suggested_mib < 2 * needed_mib && suggested_mib < max_mib) suggested_mib *= 2;
  const std::string remedy =
      needed_mib > max_mib
          ? "more than topology.host_memory_mib allows (" + std::to_string(max_mib) +
                "); shrink workload.keys or add memory servers"
          : "set topology.host_memory_mib to at least " + std::to_string(needed_mib) + " (" +
                std::to_string(suggested_mib) + " leaves room for those), or shrink workload.keys";
  throw ConfigError("topology.host_memory_mib (" + std::to_string(config.topology.host_memory_mib) +
                    " MiB per memory server) cannot hold the bulkload: its " +
                    std::to_string(config.workload.BulkloadCount()) + " entries of " +
                    std::to_string(config.index.key_bytes + config.index.value_bytes) +
                    " bytes in leaves filled to index.fill_factor " + Shortest(config.fill_factor) +
                    " over " + std::to_string(config.topology.memory_servers) +
                    " memory servers need at least " + std::to_string(needed_mib) +
                    " MiB on each before node headers, internal nodes and inserts; " + remedy);
}

}  // namespace

void CheckRunCanProgress(const RunConfig& config) {
  if (config.backend.type != "sim") {
    // A real cluster's shape is known once its memory servers answer; the
    // backend checks the index options against it then.
    rdma::ClusterShape shape;
    shape.on_chip_memory_bytes = std::numeric_limits<uint64_t>::max();
    config.index.Validate(shape);
    return;
  }
  const rdma::sim::NicProfile profile = SimNicProfile(config);
  config.index.Validate(rdma::sim::SimCluster::ShapeOf(config.topology, profile));
  CheckWrapWindow(config, profile);
  CheckHostMemory(config);
}

}  // namespace dmbench::driver
