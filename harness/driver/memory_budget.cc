#include "harness/driver/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include "harness/driver/backend_fabrics.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/sim/nic_model.h"
#include "indexes/blink/key_address_cache.h"

namespace dmbench::driver {

namespace {

// Linux's default vm.max_map_count, when /proc does not say.
constexpr uint64_t kDefaultMaxMappings = 65530;
// Mappings a process has besides the run's: its binary, libraries, heap.
constexpr uint64_t kOtherMappings = 1000;

uint64_t MaxMappings() {
  std::ifstream limit("/proc/sys/vm/max_map_count");
  uint64_t mappings = 0;
  return limit >> mappings && mappings > 0 ? mappings : kDefaultMaxMappings;
}

std::string Gibibytes(long double bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3Lg GiB", bytes / (1ull << 30));
  return text;
}

}  // namespace

uint64_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_bytes <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_bytes);
}

uint64_t PeakResidentBytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0 || usage.ru_maxrss <= 0) return 0;
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // Linux counts KiB
}

uint64_t HugePageResidentBytes() {
  std::ifstream rollup("/proc/self/smaps_rollup");
  std::string name;
  uint64_t kibibytes = 0;
  while (rollup >> name) {
    if (name == "AnonHugePages:" && rollup >> kibibytes) return kibibytes * 1024;
    rollup.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

uint64_t RunMemoryLowerBound(const RunConfig& config, uint64_t atomic_buckets) {
  const long double keys = static_cast<long double>(config.workload.BulkloadCount());
  const long double entry_bytes = config.index.key_bytes + config.index.value_bytes;
  // At least this many nodes hold the bulkload; the bulkload keeps each one's
  // low fence and address (its shape) while the tree is in use.
  const long double nodes = keys * entry_bytes / config.index.node_bytes;
  long double bytes = nodes * 16;
  if (!config.workload.trace.empty()) bytes += keys * 16;  // a trace's load file, held sorted
  if (config.verify) bytes += keys * 16;                   // the checker's initial values
  if (config.index.speculative_lookup) {
    // Every compute server's hint table, taken whole when the tree is built.
    bytes += static_cast<long double>(config.topology.compute_servers) *
             static_cast<long double>(config.index.speculative_hints) *
             indexes::KeyAddressCache::kEntryBytes;
  }
  if (config.backend.type == "sim") {
    // The memory servers live in this process: nodes built on first touch
    // cost the list of them each memory server is handed (8 bytes a node)
    // while it turns them into runs; written up front, their bytes.
    bytes += config.backend.deferred_bulkload ? nodes * 8 : keys * entry_bytes;
    bytes += static_cast<long double>(config.topology.memory_servers) * atomic_buckets *
             rdma::sim::NicModel::kBytesPerAtomicBucket;
  }
  return bytes >= 1.8e19L ? UINT64_MAX : static_cast<uint64_t>(bytes);
}

void RequireMemory(uint64_t bytes, const std::string& what) {
  const uint64_t physical = PhysicalMemoryBytes();
  if (physical == 0 || bytes <= physical) return;
  throw ConfigError(what + " needs at least " + Gibibytes(bytes) +
                    " of memory in this process, and this machine has " + Gibibytes(physical));
}

void RequireSimulatedTopology(const rdma::Topology& topology) {
  const uint64_t clients = topology.clients();
  const uint64_t servers = topology.memory_servers;
  const uint64_t limit = MaxMappings();
  if (2 * clients + 2 * servers + kOtherMappings <= limit) return;
  const std::string fewer =
      2 * servers + kOtherMappings + 2 > limit
          ? "use at most " + std::to_string((limit - kOtherMappings) / 2 - 1) + " memory servers"
          : "use at most " + std::to_string((limit - kOtherMappings) / 2 - servers) + " clients";
  throw ConfigError("topology: the simulated fabric runs all " + std::to_string(clients) +
                    " clients (compute_servers x threads_per_compute_server x "
                    "coroutines_per_thread) and " +
                    std::to_string(servers) + " memory servers in this process, which needs " +
                    std::to_string(2 * clients + 2 * servers) +
                    " memory mappings, and this "
                    "machine allows " +
                    std::to_string(limit) + " per process (vm.max_map_count); " + fewer);
}

void RequireMachineFor(const RunConfig& config) {
  // The fields that ask for the memory, as the error names them.
  std::string fields = "workload.keys (" + std::to_string(config.workload.keys) +
                       " keys, of which workload.bulkload_fraction bulkloads " +
                       std::to_string(config.workload.BulkloadCount()) + ")";
  if (config.index.speculative_lookup) {
    fields += " with index.speculative_hints (" + std::to_string(config.index.speculative_hints) +
              " per compute server, " + std::to_string(indexes::KeyAddressCache::kEntryBytes) +
              " bytes each, over topology.compute_servers " +
              std::to_string(config.topology.compute_servers) + ")";
  }
  if (config.backend.type != "sim") {
    RequireMemory(RunMemoryLowerBound(config, 0), fields + ", with the bulkloaded tree's shape,");
    return;
  }
  const rdma::sim::NicProfile profile = SimNicProfile(config);
  RequireMemory(RunMemoryLowerBound(config, profile.atomic_buckets),
                "the simulated cluster of " + fields + " and topology.memory_servers (" +
                    std::to_string(config.topology.memory_servers) + ", with " +
                    std::to_string(profile.atomic_buckets) +
                    " atomic buckets each), counting only the bulkloaded tree's shape, its "
                    "nodes (or, with backend.deferred_bulkload, their bookkeeping), the "
                    "buckets and any hint tables,");
  RequireSimulatedTopology(config.topology);
}

}  // namespace dmbench::driver
