// Everything that shapes a tree: sizes, and the protocol each technique of
// the Sherman paper toggles. FG+ and Sherman are two presets of one engine,
// so that a breakdown between them measures exactly the toggled techniques.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "harness/rdma/client_location.h"
#include "harness/util/config_forward.h"
#include "indexes/common/lock_options.h"

namespace dmbench::indexes {

// How a reader knows a node (or entry) it fetched without a lock is whole.
enum class Consistency : uint8_t {
  kCrc,           // FG+: CRC32C over the node; sorted nodes, whole-node writes
  kNodeVersions,  // 4-bit front/rear node versions; sorted nodes, whole-node writes
  kTwoLevel,      // Sherman: node versions + 4-bit front/rear entry versions,
                  // unsorted leaves, entry-sized writes (paper §4.4)
  kCacheline,     // FaRM / SMART-BT: the node version repeated in every cacheline;
                  // unsorted leaves, entries never straddle a line, entry-sized writes
};

const char* ConsistencyName(Consistency consistency);

// Whether `consistency` keeps 4-bit versions, which wrap fast enough that a
// slow READ may hide a wrap-around (node, two_level).
inline bool HasShortVersions(Consistency consistency) {
  return consistency == Consistency::kNodeVersions || consistency == Consistency::kTwoLevel;
}

// Which READs of nodes with 4-bit versions are read again when they outlast
// TreeOptions::wrap_window_us, since 16 writes could have wrapped a version
// pair back to equal during them (paper §4.4).
enum class WrapRetry : uint8_t {
  kNone,     // none: trusts every READ, as the authors' code does (Tree.cpp times no READ)
  kLookups,  // a lookup's leaf READ; range queries trust their leaf batches
  kAll,      // every leaf READ, lookups and range batches alike, as §4.4 describes; internal
             // nodes (read on a cache miss) are not timed
};

struct TreeOptions {
  uint32_t key_bytes = 8;              // 8 .. 1024: the first 8 bytes carry the key
  uint32_t value_bytes = 8;            // 8 .. 1024: the first 8 bytes carry the value
  uint32_t node_bytes = 1024;          // 256 .. 65536, a multiple of 64
  uint64_t cache_bytes = 64ull << 20;  // level-1 index cache per compute server

  Consistency consistency = Consistency::kTwoLevel;
  bool combine = true;  // write-back + unlock (+ sibling) in one batch
  LockPlacement lock_placement = LockPlacement::kTable;
  bool on_chip = true;       // global lock table in NIC on-chip memory
  bool hierarchical = true;  // local lock table with FIFO wait queues per compute server
  uint32_t handover = 8;  // max consecutive local handovers (Sherman's kMaxHandOverTime); 0 = off
  bool masked_locks = false;  // 16-bit locks by masked CAS (sim only); else 64-bit
  bool faa_release = false;   // release locks by FAA, as FG did; FG+ and Sherman use a WRITE
  // With 4-bit versions (node, two_level), a READ longer than this may have
  // missed 16 writes (paper §4.4: 16 x 0.5 us); wrap_retry says which such
  // READs are read again. Off by default, as in the code whose results the
  // paper reports: its range query (Tree::range_query) and lookup time no
  // READ, and its Fig. 12 needs that, since on a bandwidth-bound fabric every
  // range batch outlasts 8 us. Trusted slow READs are counted
  // (IndexOpStats::slow_reads_trusted).
  double wrap_window_us = 8;
  WrapRetry wrap_retry = WrapRetry::kNone;
  // Start every compute server's index cache holding the bulkloaded tree's
  // level-1 nodes (as far as they fit), as a cache that has run long does:
  // the paper measures ~98% hits at 1 billion keys (Fig. 15c), which a run
  // of simulated milliseconds cannot reach from cold at that scale.
  bool cache_prewarm = false;
  // Speculative lookup (SMART-BT, SMART §5): a lookup first READs the one
  // cacheline where a per-compute-server hint says its key's entry was last
  // found, and takes the regular path only if the line no longer holds it.
  // Needs cacheline consistency with entries that fit a line.
  bool speculative_lookup = false;
  // Hints per compute server (SMART's GenericCache default: 1,000,000).
  uint64_t speculative_hints = 1'000'000;

  // The lock protocol these options ask for.
  LockOptions locks() const;

  static TreeOptions FgPlus();
  static TreeOptions Sherman();
  // Sherman with per-cacheline versions instead of two-level versions: what
  // SMART (§6.2.3) calls Sherman+ and compares against.
  static TreeOptions ShermanPlus();
  // SMART-BT's index side: Sherman+ with speculative lookup (its substrate
  // side is the preset's; indexes/index_presets.cc).
  static TreeOptions SmartBt();

  // Throws ConfigError naming the field and what is allowed; `shape` says
  // what the backend offers (masked CAS, on-chip memory).
  void Validate(const rdma::ClusterShape& shape) const;
  // The config fields (the index section, beside the engine and preset).
  static const ConfigFields<TreeOptions>& Fields();
  // Reads the fields present over *this (a preset).
  void ReadJson(JsonObjectReader& reader);
  nlohmann::json ToJson() const;
  std::string Describe() const;
};

}  // namespace dmbench::indexes
