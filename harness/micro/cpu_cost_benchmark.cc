#include "harness/micro/cpu_cost_benchmark.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "harness/micro/micro_runner.h"
#include "harness/micro/skiplist_cache_model.h"
#include "harness/rdma/client_coroutine.h"
#include "harness/rdma/memory_layout.h"
#include "harness/rdma/sim/sim_cluster.h"
#include "harness/rdma/topology.h"
#include "harness/util/random.h"
#include "indexes/blink/node_format.h"
#include "indexes/common/crc32c.h"
#include "workloads/client_workload.h"
#include "workloads/key_space.h"
#include "workloads/workload_spec.h"

#ifndef DMBENCH_BUILD_TYPE
#define DMBENCH_BUILD_TYPE ""
#endif

namespace dmbench::micro {

namespace {

// The bulkload fill of the paper's runs (Sherman §5.1: 80% full), which is
// also the run config's default fill_factor.
constexpr double kFillFactor = 0.8;
// Distinct random lookup keys, cycled: enough that they spread over every
// cached node, few enough (512 KiB) that drawing them is not what is timed.
constexpr size_t kLookupKeys = size_t{1} << 16;

// CMAKE_BUILD_TYPE, which is empty when none was chosen.
std::string BuildType() {
  const std::string type = DMBENCH_BUILD_TYPE;
  return type.empty() ? "unspecified" : type;
}

// Makes the compiler treat `value` as used and memory as clobbered, so that
// the timed work can neither be dropped nor moved past the clock reads.
inline void KeepValue(uint64_t value) { asm volatile("" : : "r,m"(value) : "memory"); }

struct BatchTiming {
  double median_ns = 0;  // per item, over the timed batches
  double min_ns = 0;
  double max_ns = 0;
};

// `work(items)` does `items` pieces of work and returns a value derived from
// all of them. One untimed batch warms caches, branch predictors and lazily
// built state; then each timed batch gives ns per item.
template <typename Work>
BatchTiming TimePerItem(uint32_t batches, uint64_t items, Work&& work) {
  KeepValue(work(items));
  std::vector<double> per_item;
  for (uint32_t batch = 0; batch < batches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    KeepValue(work(items));
    const auto end = std::chrono::steady_clock::now();
    per_item.push_back(std::chrono::duration<double, std::nano>(end - start).count() /
                       static_cast<double>(items));
  }
  std::sort(per_item.begin(), per_item.end());
  const size_t middle = per_item.size() / 2;
  const double median =
      per_item.size() % 2 ? per_item[middle] : (per_item[middle - 1] + per_item[middle]) / 2;
  return {median, per_item.front(), per_item.back()};
}

nlohmann::json Point(const std::string& component, const std::string& parameter,
                     const std::string& unit, double scale, const BatchTiming& timing,
                     uint64_t items_per_batch) {
  return {{"component", component},
          {"profile_parameter", parameter},
          {"unit", unit},
          {"ns", timing.median_ns * scale},
          {"min_ns", timing.min_ns * scale},
          {"max_ns", timing.max_ns * scale},
          {"items_per_batch", items_per_batch}};
}

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

nlohmann::json MeasureCrc(const CpuCostBenchmarkConfig& config) {
  const uint32_t node_bytes = config.tree.node_bytes;
  std::vector<uint8_t> node(node_bytes);
  Random random(config.seed);
  for (uint8_t& byte : node) byte = static_cast<uint8_t>(random.NextU64());
  const BatchTiming timing =
      TimePerItem(config.batches, config.crc_nodes_per_batch, [&](uint64_t n) {
        uint64_t sum = 0;
        for (uint64_t i = 0; i < n; ++i) {
          // A different node each time, as every READ brings a fresh one, so the
          // checksum cannot be hoisted out of the loop.
          node[0] = static_cast<uint8_t>(i);
          sum += indexes::Crc32c(node.data(), node.size());
        }
        return sum;
      });
  nlohmann::json point = Point("crc32c_per_byte", "cpu_crc_ns_per_byte", "ns per byte",
                               1.0 / node_bytes, timing, config.crc_nodes_per_batch);
  point["node_bytes"] = node_bytes;
  point["ns_per_kib"] = point["ns"].get<double>() * 1024;
  point["note"] = Format("%.1f ns per 1 KiB", point["ns_per_kib"].get<double>());
  return point;
}

// Both caches over the same level-1 nodes and the same keys: ours (what the
// sim's indexes run) and the paper's structure (SkiplistCacheModel), whose
// figure prices cpu_index_cache_lookup_ns.
std::vector<nlohmann::json> MeasureIndexCaches(const CpuCostBenchmarkConfig& config,
                                               double bulkload_fraction) {
  const std::vector<indexes::CachedInternalNode> nodes = BulkloadedLevelOneNodes(
      config.keys, bulkload_fraction, config.tree, kFillFactor, rdma::Topology().memory_servers);
  // Uniform keys touch every cached node alike: the cache's worst case for
  // the CPU's own caches, where the runs' Zipfian keys would favour a few.
  Random random(config.seed);
  std::vector<uint64_t> keys(kLookupKeys);
  for (uint64_t& key : keys) key = 1 + random.Uniform(config.keys);

  // Times `find` (a key's leaf, packed, or 0 on a miss) over the keys.
  const auto measure = [&](const char* component, const char* parameter, const char* structure,
                           size_t cached_nodes, auto&& find) {
    uint64_t hits = 0;
    const BatchTiming timing =
        TimePerItem(config.batches, config.lookups_per_batch, [&](uint64_t n) {
          uint64_t sum = 0;
          for (uint64_t i = 0; i < n; ++i) {
            const uint64_t leaf = find(keys[i % kLookupKeys]);
            hits += leaf != 0;
            sum += leaf;
          }
          return sum;
        });
    const uint64_t lookups = (config.batches + 1) * config.lookups_per_batch;
    nlohmann::json point =
        Point(component, parameter, "ns per lookup", 1, timing, config.lookups_per_batch);
    point["cached_nodes"] = cached_nodes;
    point["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(lookups);
    point["note"] = std::string(structure) + ": " + std::to_string(cached_nodes) +
                    " level-1 nodes cached, " +
                    Format("%.0f%% hits", 100 * point["hit_fraction"].get<double>());
    return point;
  };
  std::vector<nlohmann::json> points;
  {
    indexes::IndexCache cache(config.tree.cache_bytes, config.tree.node_bytes, config.seed);
    for (const indexes::CachedInternalNode& node : nodes) cache.Insert(node);
    points.push_back(measure("index_cache_lookup", "", "ours (sorted array)", cache.stats().entries,
                             [&](uint64_t key) -> uint64_t {
                               const auto route = cache.FindLeaf(key);
                               return route ? route->leaf.Pack() : 0;
                             }));
  }
  {
    SkiplistCacheModel cache(nodes, config.tree.node_bytes, config.seed);
    points.push_back(measure("paper_index_cache_lookup", "cpu_index_cache_lookup_ns",
                             "the paper's structure (skiplist, page scan)", cache.entries(),
                             [&](uint64_t key) { return cache.FindLeaf(key); }));
  }
  return points;
}

nlohmann::json MeasureKeyGeneration(const CpuCostBenchmarkConfig& config,
                                    const workloads::WorkloadSpec& spec) {
  // Built as the benchmark driver builds each client's stream.
  workloads::KeySpace key_space(spec, config.seed);
  workloads::ClientWorkload workload(spec, key_space, config.seed, 0, 1);
  const BatchTiming timing =
      TimePerItem(config.batches, config.operations_per_batch, [&](uint64_t n) {
        uint64_t sum = 0;
        for (uint64_t i = 0; i < n; ++i) {
          const workloads::Operation op = workload.Next();
          sum += op.key ^ static_cast<uint64_t>(op.type);
        }
        return sum;
      });
  nlohmann::json point = Point("key_generation", "cpu_key_generation_ns", "ns per operation", 1,
                               timing, config.operations_per_batch);
  point["mix"] = spec.mix;
  point["theta"] = spec.theta;
  point["keys"] = spec.keys;
  point["note"] = spec.mix + ", Zipfian " + Format("%.2f", spec.theta) + ", " +
                  std::to_string(spec.keys) + " keys";
  return point;
}

nlohmann::json MeasureCoroutine(const CpuCostBenchmarkConfig& config) {
  rdma::ClientCoroutine coroutine;
  uint64_t resumed = 0;
  coroutine.Start(
      [&] {
        for (;;) {
          ++resumed;
          coroutine.Suspend();
        }
      },
      rdma::sim::SimOptions().stack_bytes);
  // The first Resume() makes the stack; the timed ones only switch.
  coroutine.Resume();
  const BatchTiming timing =
      TimePerItem(config.batches, config.resumptions_per_batch, [&](uint64_t n) {
        for (uint64_t i = 0; i < n; ++i) coroutine.Resume();
        return resumed;
      });
  // One resumption is two switches: into the client and back out at its
  // next Suspend(). The fabric charges cpu_coroutine_switch_ns once per
  // resumption, so the round trip is the figure; half of it is what
  // per-switch tables (such as Boost's) report.
  nlohmann::json point = Point("coroutine_switch", "cpu_coroutine_switch_ns",
                               "ns per resumption (Resume + Suspend round trip)", 1, timing,
                               config.resumptions_per_batch);
  point["ns_one_direction"] = point["ns"].get<double>() / 2;
  point["note"] = Format("one direction %.1f ns", point["ns_one_direction"].get<double>());
  coroutine.Destroy();
  return point;
}

}  // namespace

std::vector<indexes::CachedInternalNode> BulkloadedLevelOneNodes(uint64_t keys,
                                                                 double bulkload_fraction,
                                                                 const indexes::TreeOptions& tree,
                                                                 double fill_factor,
                                                                 uint32_t memory_servers) {
  if (keys < 1 || !(bulkload_fraction > 0 && bulkload_fraction <= 1) ||
      !(fill_factor > 0 && fill_factor <= 1) || memory_servers < 1) {
    throw std::invalid_argument(
        "BulkloadedLevelOneNodes: needs keys >= 1, bulkload_fraction and fill_factor in (0, 1], "
        "memory_servers >= 1");
  }
  const indexes::NodeFormat format(tree);
  // The same per-node counts as BLinkTree::Bulkload.
  const auto per_leaf =
      static_cast<uint64_t>(std::max<double>(1, std::floor(format.leaf_capacity() * fill_factor)));
  const auto per_internal = static_cast<uint64_t>(
      std::max<double>(2, std::floor((format.internal_capacity() + 1) * fill_factor)));
  const auto loaded =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(keys * bulkload_fraction)));
  const uint64_t leaves = (loaded + per_leaf - 1) / per_leaf;
  // A leaf's low fence is its first loaded key; loaded keys spread evenly
  // over [1, keys] (KeySpace scatters them), so the j-th is about
  // 1 + j * keys / loaded. Strictly ascending since keys >= loaded.
  auto leaf_low = [&](uint64_t leaf) -> uint64_t {
    if (leaf == 0) return 0;
    const auto rank = static_cast<double>(leaf * per_leaf);
    return 1 + static_cast<uint64_t>(rank * static_cast<double>(keys) / loaded);
  };
  // Leaves first, then their parents, each node on the next server in turn.
  auto address = [&](uint64_t placed) {
    return rdma::GlobalAddress::Host(
        static_cast<uint16_t>(placed % memory_servers),
        rdma::MemoryLayout::kFirstChunkOffset + placed / memory_servers * format.node_bytes());
  };
  const uint64_t parents = (leaves + per_internal - 1) / per_internal;
  std::vector<indexes::CachedInternalNode> nodes(parents);
  for (uint64_t parent = 0; parent < parents; ++parent) {
    const uint64_t first = parent * per_internal;
    const uint64_t end = std::min(leaves, first + per_internal);
    indexes::CachedInternalNode& node = nodes[parent];
    node.address = address(leaves + parent);
    node.low_fence = leaf_low(first);
    node.high_fence = parent + 1 < parents ? leaf_low(end) : UINT64_MAX;
    node.leftmost_child = address(first);
    for (uint64_t leaf = first + 1; leaf < end; ++leaf) {
      node.children.emplace_back(leaf_low(leaf), address(leaf));
    }
  }
  return nodes;
}

std::string CpuModelName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const size_t begin = line.find_first_not_of(" \t", colon + 1);
    if (begin == std::string::npos) break;
    return line.substr(begin);
  }
  return "unknown";
}

nlohmann::json RunCpuCostBenchmark(const CpuCostBenchmarkConfig& config, std::ostream& table) {
  if (config.batches < 1 || config.crc_nodes_per_batch < 1 || config.lookups_per_batch < 1 ||
      config.operations_per_batch < 1 || config.resumptions_per_batch < 1) {
    throw std::invalid_argument("cpu benchmark: batches and items per batch must be >= 1");
  }
  workloads::WorkloadSpec spec;
  spec.SetMix("write-intensive");
  spec.distribution = workloads::KeyDistribution::kZipfian;
  spec.theta = 0.99;
  spec.keys = config.keys;
  spec.Validate();

  const std::string cpu_model = CpuModelName();
  std::vector<nlohmann::json> points = {MeasureCrc(config)};
  for (nlohmann::json& point : MeasureIndexCaches(config, spec.bulkload_fraction)) {
    points.push_back(std::move(point));
  }
  points.push_back(MeasureKeyGeneration(config, spec));
  points.push_back(MeasureCoroutine(config));
  std::vector<nlohmann::json> rows;
  for (const nlohmann::json& point : points) {
    rows.push_back(point);
    rows.back()["ns"] = Format("%.2f", point["ns"].get<double>());
    rows.back()["min_ns"] = Format("%.2f", point["min_ns"].get<double>());
    rows.back()["max_ns"] = Format("%.2f", point["max_ns"].get<double>());
  }
  table << "CPU cost of our client-side code, wall-clock on " << cpu_model << " (" << BuildType()
        << " build), median of " << config.batches << " batches\n"
        << FormatTable(rows, {"component", "ns", "unit", "min_ns", "max_ns", "note"});
  return {{"benchmark", "cpu"},        {"clock", "wall (std::chrono::steady_clock), not simulated"},
          {"cpu_model", cpu_model},    {"build_type", BuildType()},
          {"batches", config.batches}, {"node_bytes", config.tree.node_bytes},
          {"seed", config.seed},       {"points", points}};
}

}  // namespace dmbench::micro
