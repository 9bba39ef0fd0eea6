// Everything that shapes a tree: sizes, and the protocol each technique of
// the Sherman paper toggles. FG+ and Sherman are two presets of one engine,
// so that a breakdown between them measures exactly the toggled techniques.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

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
  // missed 16 writes and is retried (paper §4.4: 16 x 0.5 us).
  double wrap_window_us = 8;
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
