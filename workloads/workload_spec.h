// The workload part of a run config: which operations a run issues, in which proportions, over
// which keys.
//
// Named mixes reproduce the Sherman paper's workloads (SIGMOD'22, Table 3) and YCSB's core
// workloads A-E, so that a config says "read-intensive" or "ycsb-b" rather than a set of fractions
// that could drift from the definition. Only mix "custom" takes fractions from the config.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/util/config_forward.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::workloads {

// kInsert is the paper's "insert": insert-or-update of any key of the space, so that about
// 1 - bulkload_fraction of inserts create a key. kUpdate is YCSB's update: of a key known to exist.
enum class OpType : uint8_t { kInsert, kUpdate, kLookup, kDelete, kRange };

// "insert", "update", "lookup", "delete", "range".
const char* OpTypeName(OpType type);

// kLatest is YCSB's "latest" request distribution (workload D): recently inserted keys are hot.
enum class KeyDistribution { kZipfian, kUniform, kLatest };

// "zipfian", "uniform", "latest".
const char* KeyDistributionName(KeyDistribution distribution);

// How a YCSB trace's operations are dealt to the clients (trace_workload.h): operation i to
// client i mod C, or each client a contiguous block of about n / C operations in trace order.
enum class TraceSplit { kRoundRobin, kBlocks };

struct WorkloadSpec {
  // Keys handed to an index are in [1, 2^64 - 2]; the bound leaves room for ycsb-d's new keys.
  static constexpr uint64_t kMinKeys = 16;
  static constexpr uint64_t kMaxKeys = uint64_t{1} << 48;
  static constexpr uint64_t kMaxRangeSize = uint64_t{1} << 48;
  static constexpr uint32_t kMaxScan = 1'000'000;
  // 2^50 (1.1e15) keeps every rank exact in a double, which Gray's inversion computes in.
  static constexpr uint64_t kMaxZipfPopulation = uint64_t{1} << 50;
  // Named mixes and custom fractions must sum to 1 within this.
  static constexpr double kSumTolerance = 1e-9;

  // One of MixNames(). The defaults below are this mix resolved, so a default spec is valid.
  std::string mix = "write-intensive";
  // Resolved from `mix`; only with mix "custom" do they come from the config.
  double insert = 0.5, update = 0, lookup = 0.5, remove = 0, range = 0;
  // ycsb-d requires kLatest, and kLatest is only meaningful for ycsb-d: its reads favour the new
  // keys its inserts create, while other mixes never create keys beyond the initial space.
  KeyDistribution distribution = KeyDistribution::kZipfian;
  double theta = 0.99;        // [0, 1); used by kZipfian and kLatest
  uint64_t keys = 1'000'000;  // key space size N, [kMinKeys, kMaxKeys]
  // Zipfian ranks are drawn over this many items P (0: the key count, as YCSB does), so that a
  // scaled-down key space keeps the paper's key popularity: the hottest key takes 1/zeta(P) of
  // the accesses, e.g. 4.2% at P = 1e9 instead of 5.5% at N = 1e7 keys (theta 0.99). Rank r < N
  // is key r, as without a population; rank r >= N folds onto rank r mod N (see key_space.h).
  // 0 or [keys, kMaxZipfPopulation]; zipfian distribution only.
  uint64_t zipf_population = 0;
  double bulkload_fraction = 0.8;  // (0, 1], and must load at least one key
  uint64_t range_size = 100;       // paper ranges: keys [k, k + range_size)
  uint32_t scan_max = 100;         // ycsb-e: scans return up to U[1, scan_max] records from k
  // range-write (paper §5.3): half the clients (even client index) only insert, the other half
  // only range-query. Set by the mix, never chosen on its own.
  bool split_clients = false;
  // A YCSB trace to replay instead of a generated mix (ycsb_trace.h): its operations, dealt to
  // the clients by trace_split; trace_load's INSERT keys are bulkloaded. Every field above must
  // keep its default with a trace, since the trace decides the operations and keys. Paths are
  // read by every compute-server process, relative to its working directory.
  std::string trace;
  std::string trace_load;
  TraceSplit trace_split = TraceSplit::kRoundRobin;

  // "write-only", ..., "ycsb-e", "custom".
  static const std::vector<std::string>& MixNames();

  // Sets `mix` and everything a named mix fixes: the fractions, split_clients, and the
  // distribution where the mix requires one (latest for ycsb-d; a latest distribution becomes
  // zipfian for every other mix). "custom" keeps the fractions, for the caller to set. Throws
  // ConfigError naming workload.mix for an unknown name.
  void SetMix(const std::string& name);

  // P, the number of Zipfian ranks: zipf_population, or keys when it is 0.
  uint64_t ZipfPopulation() const { return zipf_population == 0 ? keys : zipf_population; }

  // How many keys the bulkload inserts: round(keys * bulkload_fraction).
  uint64_t BulkloadCount() const;

  // Throws ConfigError naming the first bad field (workload.<field>) and what is allowed.
  void Validate() const;
  // *this once Validate() passed: lets a constructor validate before its
  // members use the spec.
  const WorkloadSpec& Validated() const {
    Validate();
    return *this;
  }

  // Reads the fields present in the workload object (absent ones keep their value), resolves the
  // mix and validates. Fractions and split_clients are accepted with a named mix only if they
  // equal what the mix fixes, so that a resolved ToJson() reads back. Rejects unknown keys, so
  // `reader` must be dedicated to the workload object. Throws ConfigError naming the field.
  void ReadJson(JsonObjectReader& reader);

  // Every field, resolved, so that a result file records (and can re-run) exactly this workload.
  nlohmann::json ToJson() const;

  // The config fields of the workload section.
  static const ConfigFields<WorkloadSpec>& Fields();

  bool operator==(const WorkloadSpec&) const = default;
};

}  // namespace dmbench::workloads
