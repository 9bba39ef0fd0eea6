#include "indexes/common/global_lock_table.h"

#include <xxhash.h>

#include "indexes/common/index_layout.h"

namespace dmbench::indexes {

namespace {
// The source of every release WRITE: zeroes, never written.
constexpr uint64_t kZero = 0;
}  // namespace

GlobalLockTable::GlobalLockTable(const LockOptions& options)
    : on_chip_(options.on_chip),
      in_node_(options.placement == LockPlacement::kNode),
      masked_(options.masked),
      faa_release_(options.faa_release),
      locks_per_server_(IndexLayout::kLockTableBytes / (options.masked ? 2 : 8)) {}

GlobalLockTable::Lock GlobalLockTable::For(rdma::GlobalAddress node) const {
  if (in_node_) {
    // The node's first word (NodeFormat reserves it): one lock per node,
    // and NIC atomic buckets follow the nodes' alignment.
    return {.id = node.Pack(),
            .word = node,
            .field = 0,
            .release = node,
            .release_bytes = masked_ ? 2u : 8u};
  }
  const uint64_t packed = node.Pack();
  const uint64_t slot = XXH3_64bits(&packed, sizeof(packed)) % locks_per_server_;
  const uint64_t base =
      on_chip_ ? IndexLayout::kOnChipLockTableOffset : IndexLayout::kHostLockTableOffset;
  const rdma::MemorySpace space = on_chip_ ? rdma::MemorySpace::kOnChip : rdma::MemorySpace::kHost;
  Lock lock;
  lock.id = (uint64_t{node.server} << 32) | slot;
  if (masked_) {
    lock.word = {node.server, space, base + slot / 4 * 8};
    lock.field = static_cast<uint32_t>(slot % 4);
    lock.release = {node.server, space, base + slot * 2};
    lock.release_bytes = 2;
  } else {
    lock.word = {node.server, space, base + slot * 8};
    lock.field = 0;
    lock.release = lock.word;
    lock.release_bytes = 8;
  }
  return lock;
}

namespace {
// The owner's tag: its compute server, never 0 (0 means free).
uint64_t TagOf(const rdma::Client& client) { return client.location().compute_server + 1; }
}  // namespace

uint32_t GlobalLockTable::Acquire(rdma::Client& client, const Lock& lock) const {
  const uint64_t tag = TagOf(client);
  uint32_t failures = 0;
  if (masked_) {
    const uint32_t shift = 16 * lock.field;
    const uint64_t mask = uint64_t{0xFFFF} << shift;
    while (((client.MaskedCompareAndSwap(lock.word, 0, tag << shift, mask) >> shift) & 0xFFFF) !=
           0) {
      ++failures;
    }
  } else {
    while (client.CompareAndSwap(lock.word, 0, tag) != 0) ++failures;
  }
  return failures;
}

rdma::WorkRequest GlobalLockTable::ReleaseRequest(const Lock& lock,
                                                  const rdma::Client& client) const {
  if (faa_release_) {
    // Subtracting exactly the tag empties the field without touching others.
    const uint64_t held = TagOf(client) << (16 * lock.field);
    return {.verb = rdma::Verb::kFetchAndAdd,
            .remote = lock.word,
            .length = 8,
            .compare_or_add = ~held + 1};
  }
  return {.verb = rdma::Verb::kWrite,
          .remote = lock.release,
          .local = const_cast<uint64_t*>(&kZero),
          .length = lock.release_bytes};
}

}  // namespace dmbench::indexes
