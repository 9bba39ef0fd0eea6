#include "indexes/blink/tree_options.h"

#include <string>

#include "harness/rdma/errors.h"
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
  if (format.leaf_capacity() < 2 || format.internal_capacity() < 3) {
    fail("node_bytes: " + std::to_string(node_bytes) + " bytes hold only " +
         std::to_string(format.leaf_capacity()) + " leaf entries and " +
         std::to_string(format.internal_capacity()) +
         " internal entries of this key and value size; at least 2 and 3 are needed: raise "
         "node_bytes");
  }
}

void TreeOptions::ReadJson(JsonObjectReader& reader) {
  key_bytes = static_cast<uint32_t>(reader.Unsigned("key_bytes", key_bytes, 8, 1024));
  value_bytes = static_cast<uint32_t>(reader.Unsigned("value_bytes", value_bytes, 8, 1024));
  node_bytes = static_cast<uint32_t>(reader.Unsigned("node_bytes", node_bytes, 256, 65536));
  cache_bytes = reader.Unsigned("cache_mib", cache_bytes >> 20, 0, 1 << 20) << 20;
  const std::string scheme = reader.Choice("consistency", ConsistencyName(consistency),
                                           {"crc", "node", "two_level", "cacheline"});
  consistency = scheme == "crc"         ? Consistency::kCrc
                : scheme == "node"      ? Consistency::kNodeVersions
                : scheme == "two_level" ? Consistency::kTwoLevel
                                        : Consistency::kCacheline;
  combine = reader.Bool("combine", combine);
  on_chip = reader.Bool("onchip", on_chip);
  lock_placement = reader.Choice("lock_placement", LockPlacementName(lock_placement),
                                 {"node", "table"}) == "node"
                       ? LockPlacement::kNode
                       : LockPlacement::kTable;
  hierarchical = reader.Bool("hierarchical", hierarchical);
  handover = static_cast<uint32_t>(reader.Unsigned("handover", handover, 0, 1 << 20));
  masked_locks = reader.Bool("masked_locks", masked_locks);
  faa_release = reader.Bool("faa_release", faa_release);
  wrap_window_us = reader.Number("wrap_window_us", wrap_window_us, 0.1, 1e6);
}

std::string TreeOptions::Describe() const {
  return std::string("consistency=") + ConsistencyName(consistency) +
         " combine=" + (combine ? "on" : "off") + " onchip=" + (on_chip ? "on" : "off") +
         " lock_placement=" + LockPlacementName(lock_placement) +
         " hierarchical=" + (hierarchical ? "on" : "off") +
         " handover=" + std::to_string(handover) +
         " locks=" + (masked_locks ? "16-bit" : "64-bit") +
         " release=" + (faa_release ? "faa" : "write") + " key=" + std::to_string(key_bytes) +
         "B value=" + std::to_string(value_bytes) + "B node=" + std::to_string(node_bytes) + "B";
}

}  // namespace dmbench::indexes
