#include "harness/micro/calibration_benchmarks.h"

#include <nlohmann/json.hpp>

#include "harness/micro/atomic_benchmark.h"
#include "harness/micro/verb_benchmark.h"

namespace dmbench::micro {

std::vector<nlohmann::json> RunCalibrationBenchmarks(const MicroOptions& options,
                                                     std::ostream& table) {
  std::vector<nlohmann::json> documents;
  // Unloaded: one client, one request at a time.
  VerbBenchmarkConfig unloaded;
  unloaded.sizes = {8};
  unloaded.topology = MicroTopology(1);
  unloaded.topology.threads_per_compute_server = 1;
  documents.push_back(RunVerbBenchmark(unloaded, options, table));
  // Message rate and bandwidth: 176 clients into one NIC, two requests per
  // batch so that the NIC, not the clients' round trips, is the limit.
  VerbBenchmarkConfig loaded;
  loaded.sizes = {8, 64, 128, 256, 4096};
  loaded.depth = 2;
  documents.push_back(RunVerbBenchmark(loaded, options, table));
  // Same-address CAS, and CAS spread over many words.
  AtomicBenchmarkConfig atomics;
  atomics.address_counts = {1, 1024};
  documents.push_back(RunAtomicBenchmark(atomics, options, table));
  return documents;
}

}  // namespace dmbench::micro
