#include "harness/driver/run_feasibility.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "harness/driver/backend_fabrics.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/sim/sim_cluster.h"
#include "harness/rdma/sim/unloaded_timing.h"
#include "indexes/blink/node_format.h"

namespace dmbench::driver {

namespace {

std::string Microseconds(double us) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", us);
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
  if (!indexes::NodeFormat(index).short_versions()) return;  // no wrap-around to guard
  const rdma::sim::ReadPath path = rdma::sim::SlowestPath(config.topology);
  const double needed_us = WindowNeededUs(profile, index.node_bytes, path);
  if (index.wrap_window_us >= needed_us) return;
  const double read_us =
      rdma::sim::ToNanoseconds(rdma::sim::UnloadedReadTime(profile, index.node_bytes, path)) / 1000;
  char read[32];
  std::snprintf(read, sizeof(read), "%.3g", read_us);
  std::string remedy = "set index.wrap_window_us to at least " + Microseconds(needed_us);
  if (const uint32_t largest = LargestNodeFor(profile, index.wrap_window_us, path)) {
    remedy += ", or index.node_bytes to at most " + std::to_string(largest);
  }
  throw ConfigError(
      "index.wrap_window_us (" + Microseconds(index.wrap_window_us) +
      " us) is too short for index.node_bytes (" + std::to_string(index.node_bytes) +
      ") on NIC profile " + profile.name + ": an unloaded READ of one node takes " + read +
      " us there, and the 4-bit version check (index.consistency " +
      indexes::ConsistencyName(index.consistency) + ") needs a window of at least " +
      Microseconds(kWrapWindowReads) +
      " such READs (the READ and one more queued ahead of it), or it retries every READ and "
      "the run never makes progress; " +
      remedy);
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
}

}  // namespace dmbench::driver
