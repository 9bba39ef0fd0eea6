// What our own client-side code costs in CPU time on this machine: the
// source of the NIC profile's cpu_* parameters that no published figure pins
// (cpu_crc_ns_per_byte, cpu_index_cache_lookup_ns, cpu_key_generation_ns,
// cpu_coroutine_switch_ns). Unlike the other microbenchmarks this one
// measures real wall-clock time (std::chrono::steady_clock), not simulated
// time: each component runs an untimed warm-up batch and then several timed
// batches, and the median batch gives its figure, so that a stray interrupt
// or a frequency step on a shared machine moves it little.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "indexes/blink/index_cache.h"
#include "indexes/blink/tree_options.h"

namespace dmbench::micro {

struct CpuCostBenchmarkConfig {
  // Timed batches per component (the median is reported), after one untimed
  // warm-up batch of the same size.
  uint32_t batches = 11;
  // Items per batch, sized so that a batch lasts milliseconds: far above the
  // clock's resolution and the cost of reading it.
  uint64_t crc_nodes_per_batch = 50'000;
  uint64_t lookups_per_batch = 200'000;
  uint64_t operations_per_batch = 500'000;
  uint64_t resumptions_per_batch = 500'000;
  // The key space of the paper's runs (Sherman §5.1 loads 10 M keys at
  // Table 3's write-intensive mix, Zipfian 0.99).
  uint64_t keys = 10'000'000;
  // The tree whose level-1 nodes fill the index cache; its node_bytes is
  // also the size CRC32C runs over (FG+ checks one node per READ).
  indexes::TreeOptions tree = indexes::TreeOptions::Sherman();
  uint64_t seed = 1;
};

// Runs the five components, prints a table to `table` and returns
// {"benchmark": "cpu", "cpu_model": ..., "points": [{"component": ...,
// "ns": ..., "unit": ..., ...}]} with the components in the order
// crc32c_per_byte, index_cache_lookup (ours, priced by no parameter:
// profile_parameter ""), paper_index_cache_lookup, key_generation,
// coroutine_switch.
nlohmann::json RunCpuCostBenchmark(const CpuCostBenchmarkConfig& config, std::ostream& table);

// The level-1 internal nodes (the parents of leaves, which the index cache
// holds) of a tree bulkloaded like BLinkTree::Bulkload builds it: keys
// [1, keys] of which `bulkload_fraction` are loaded evenly over the range,
// leaves and internal nodes filled to `fill_factor` of the capacities
// NodeFormat gives `tree`, nodes spread over `memory_servers` in turn. Lets
// a benchmark fill an IndexCache as a running tree would without building
// the tree on a fabric.
std::vector<indexes::CachedInternalNode> BulkloadedLevelOneNodes(uint64_t keys,
                                                                 double bulkload_fraction,
                                                                 const indexes::TreeOptions& tree,
                                                                 double fill_factor,
                                                                 uint32_t memory_servers);

// The "model name" of the first processor in /proc/cpuinfo, or "unknown":
// the figures belong to this CPU.
std::string CpuModelName();

}  // namespace dmbench::micro
