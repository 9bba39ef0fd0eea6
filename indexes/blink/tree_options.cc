#include "indexes/blink/tree_options.h"

#include <string>
#include <utility>
#include <vector>

#include "harness/rdma/errors.h"
#include "harness/util/config_fields.h"
#include "harness/util/json_object_reader.h"
#include "indexes/blink/node_format.h"
#include "indexes/common/index_layout.h"

namespace dmbench::indexes {

const char* ConsistencyName(Consistency consistency) {
  switch (consistency) {
    case Consistency::kCrc:
      return "crc";
    case Consistency::kNodeVersions:
      return "node";
    case Consistency::kTwoLevel:
      return "two_level";
    case Consistency::kCacheline:
      return "cacheline";
  }
  return "unknown";
}

namespace {

// wrap_retry's names in configs, in Describe() and in the field's docs.
const std::vector<std::pair<std::string, WrapRetry>>& WrapRetryNames() {
  static const std::vector<std::pair<std::string, WrapRetry>> names = {
      {"none", WrapRetry::kNone}, {"lookups", WrapRetry::kLookups}, {"all", WrapRetry::kAll}};
  return names;
}

std::string WrapRetryName(WrapRetry retry) {
  for (const auto& [name, value] : WrapRetryNames()) {
    if (value == retry) return name;
  }
  return "unknown";
}

}  // namespace

TreeOptions TreeOptions::FgPlus() {
  TreeOptions options;
  options.consistency = Consistency::kCrc;
  options.combine = false;
  options.lock_placement = LockPlacement::kNode;
  options.on_chip = false;
  options.hierarchical = false;
  options.handover = 0;
  return options;
}

TreeOptions TreeOptions::Sherman() { return TreeOptions(); }

// SMART §6.2.3: Sherman's two-level versions assume a NIC writes and reads a
// node in ascending address order, which SMART found its RNIC does not, so
// Sherman+ keeps FaRM's per-cacheline versions (§5).
TreeOptions TreeOptions::ShermanPlus() {
  TreeOptions options = Sherman();
  options.consistency = Consistency::kCacheline;
  return options;
}

TreeOptions TreeOptions::SmartBt() {
  TreeOptions options = ShermanPlus();
  options.speculative_lookup = true;
  return options;
}

LockOptions TreeOptions::locks() const {
  return {.placement = lock_placement,
          .on_chip = on_chip,
          .masked = masked_locks,
          .faa_release = faa_release,
          .hierarchical = hierarchical,
          .handover = handover,
          .combine = combine};
}

void TreeOptions::Validate(const rdma::ClusterShape& shape) const {
  auto fail = [](const std::string& what) { throw ConfigError("index." + what); };
  if (key_bytes < 8 || key_bytes > 1024) {
    fail("key_bytes: must be in [8, 1024], got " + std::to_string(key_bytes));
  }
  if (value_bytes < 8 || value_bytes > 1024) {
    fail("value_bytes: must be in [8, 1024], got " + std::to_string(value_bytes));
  }
  if (node_bytes < 256 || node_bytes > 65536 || node_bytes % 64 != 0) {
    fail("node_bytes: must be a multiple of 64 in [256, 65536], got " + std::to_string(node_bytes));
  }
  if (handover > 0 && !hierarchical) {
    fail(
        "handover: locks are handed over through the local lock table, so handover > 0 needs "
        "hierarchical = true (or set handover to 0)");
  }
  if (lock_placement == LockPlacement::kNode && on_chip) {
    fail(
        "lock_placement: 'node' keeps each lock in its node's header in host memory, which "
        "contradicts index.onchip = true (locks in NIC on-chip memory); set lock_placement to "
        "'table' or onchip to false");
  }
  if (lock_placement == LockPlacement::kNode && consistency == Consistency::kCacheline) {
    fail(
        "lock_placement: 'node' is not supported with index.consistency = 'cacheline' (byte 0 "
        "of every line holds the version, so a line has no room for an aligned lock word); set "
        "lock_placement to 'table'");
  }
  if (masked_locks && !shape.masked_compare_and_swap) {
    fail(
        "masked_locks: this backend has no masked compare-and-swap (upstream rdma-core lacks "
        "it); use 64-bit locks (masked_locks = false)");
  }
  if (on_chip && shape.on_chip_memory_bytes < IndexLayout::kLockTableBytes) {
    fail("onchip: the global lock table needs " + std::to_string(IndexLayout::kLockTableBytes) +
         " bytes of on-chip memory per memory server, the fabric offers " +
         std::to_string(shape.on_chip_memory_bytes) + "; set onchip to false");
  }
  const NodeFormat format(*this);
  if (speculative_lookup && (consistency != Consistency::kCacheline || !format.entry_writes())) {
    fail(
        "speculative_lookup: reads one cacheline and trusts it whole, so it needs "
        "index.consistency "
        "= 'cacheline' with a leaf entry (key_bytes + value_bytes = " +
        std::to_string(key_bytes + value_bytes) +
        ") that fits the 63 payload bytes of a line; got consistency '" +
        ConsistencyName(consistency) + "'");
  }
  if (format.leaf_capacity() < 2 || format.internal_capacity() < 3) {
    fail("node_bytes: " + std::to_string(node_bytes) + " bytes hold only " +
         std::to_string(format.leaf_capacity()) + " leaf entries and " +
         std::to_string(format.internal_capacity()) +
         " internal entries of this key and value size; at least 2 and 3 are needed: raise "
         "node_bytes");
  }
}

const ConfigFields<TreeOptions>& TreeOptions::Fields() {
  static const ConfigFields<TreeOptions> fields = [] {
    using O = TreeOptions;
    ConfigFields<TreeOptions> list;
    list.Choice("consistency", &O::consistency,
                {{"crc", Consistency::kCrc},
                 {"node", Consistency::kNodeVersions},
                 {"two_level", Consistency::kTwoLevel},
                 {"cacheline", Consistency::kCacheline}},
                "how a lock-free reader knows a node is whole: CRC32C (FG+), 4-bit node "
                "versions, two-level versions (Sherman), per-cacheline versions")
        .Bool("combine", &O::combine, "write-back and release (and sibling) in one batch")
        .Bool("onchip", &O::on_chip, "the global lock table in NIC on-chip memory")
        .Choice("lock_placement", &O::lock_placement,
                {{"node", LockPlacement::kNode}, {"table", LockPlacement::kTable}},
                "locks in each node's header (FG, FG+) or in a global lock table (Sherman)")
        .Bool("hierarchical", &O::hierarchical,
              "a local lock table with FIFO wait queues per compute server")
        .Unsigned("handover", &O::handover, 0, 1 << 20,
                  "most local handovers in a row (Sherman's kMaxHandOverTime); 0 = off")
        .Bool("masked_locks", &O::masked_locks, "16-bit locks by masked CAS (sim only)")
        .Bool("faa_release", &O::faa_release, "release locks by FAA, as FG did")
        .Number("wrap_window_us", &O::wrap_window_us, 0.1, 1e6,
                "with 4-bit versions, a READ longer than this may hide a version wrap-around "
                "(paper §4.4: 16 x 0.5 us); wrap_retry says which such READs are retried")
        .Choice("wrap_retry", &O::wrap_retry, WrapRetryNames(),
                "which READs outlasting wrap_window_us are read again: none (the authors' "
                "code times no READ, and the paper's results come from it), a lookup's leaf "
                "READ, or all (lookups and range batches, as §4.4 describes); trusted ones are "
                "counted as index.slow_reads_trusted")
        .Unsigned("key_bytes", &O::key_bytes, 8, 1024, "key width; the first 8 bytes are the key")
        .Unsigned("value_bytes", &O::value_bytes, 8, 1024,
                  "value width; the first 8 bytes are the value")
        .Unsigned("node_bytes", &O::node_bytes, 256, 65536, "node size, a multiple of 64")
        .Custom(
            "cache_mib", "integer in [0, 1048576]", "level-1 index cache per compute server, MiB",
            [](JsonObjectReader& reader, O& options) {
              options.cache_bytes =
                  reader.Unsigned("cache_mib", options.cache_bytes >> 20, 0, 1 << 20) << 20;
            },
            [](const O& options) { return nlohmann::json(options.cache_bytes >> 20); })
        .Bool("cache_prewarm", &O::cache_prewarm,
              "start each index cache holding the bulkloaded level-1 nodes (as far as they "
              "fit), as a long-running one does; off: caches start cold")
        .Bool("speculative_lookup", &O::speculative_lookup,
              "SMART-BT's speculative lookup: READ the one cacheline a hint names for the key, "
              "the whole leaf only if it no longer holds the key (needs consistency cacheline)")
        .Unsigned("speculative_hints", &O::speculative_hints, 1, 1ull << 32,
                  "key-to-entry hints per compute server for speculative_lookup, direct-mapped, "
                  "24 bytes each, taken up front (a run whose tables exceed this machine's "
                  "memory is refused; SMART: 1,000,000)");
    return list;
  }();
  return fields;
}

void TreeOptions::ReadJson(JsonObjectReader& reader) { Fields().Read(reader, *this); }

nlohmann::json TreeOptions::ToJson() const { return Fields().Write(*this); }

std::string TreeOptions::Describe() const {
  return std::string("consistency=") + ConsistencyName(consistency) +
         " combine=" + (combine ? "on" : "off") + " onchip=" + (on_chip ? "on" : "off") +
         " lock_placement=" + LockPlacementName(lock_placement) +
         " hierarchical=" + (hierarchical ? "on" : "off") +
         " handover=" + std::to_string(handover) +
         " locks=" + (masked_locks ? "16-bit" : "64-bit") +
         " release=" + (faa_release ? "faa" : "write") +
         (HasShortVersions(consistency) ? " wrap_retry=" + WrapRetryName(wrap_retry)
                                        : std::string()) +
         " key=" + std::to_string(key_bytes) + "B value=" + std::to_string(value_bytes) +
         "B node=" + std::to_string(node_bytes) + "B" +
         (speculative_lookup ? " speculative=" + std::to_string(speculative_hints) : "");
}

}  // namespace dmbench::indexes
