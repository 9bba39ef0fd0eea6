#include "indexes/common/global_lock_table.h"

#include <xxhash.h>

#include <cstdio>
#include <string>

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
      wait_limit_ns_(options.wait_limit_ns),
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
std::string Milliseconds(uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g ms", static_cast<double>(ns) / 1e6);
  return text;
}

// The owner's tag: its compute server, never 0 (0 means free).
uint64_t TagOf(const rdma::Client& client) { return client.location().compute_server + 1; }
}  // namespace

uint32_t GlobalLockTable::Acquire(rdma::Client& client, const Lock& lock) const {
  const uint64_t tag = TagOf(client);
  const uint32_t shift = masked_ ? 16 * lock.field : 0;
  const uint64_t mask = masked_ ? uint64_t{0xFFFF} << shift : ~uint64_t{0};
  // The holder's tag from a failed CAS, or 0 once the lock is ours.
  const auto try_once = [&]() -> uint64_t {
    const uint64_t seen = masked_ ? client.MaskedCompareAndSwap(lock.word, 0, tag << shift, mask)
                                  : client.CompareAndSwap(lock.word, 0, tag);
    return (seen & mask) >> shift;
  };
  uint64_t holder = try_once();
  if (holder == 0) return 0;
  const uint64_t started_ns = client.NowNanoseconds();
  uint32_t failures = 1;
  for (;;) {
    client.RetryAfterFailedCas();
    if ((holder = try_once()) == 0) break;
    ++failures;
    const uint64_t waited_ns = client.NowNanoseconds() - started_ns;
    if (waited_ns >= wait_limit_ns_) ThrowLockLost(client, lock, holder, failures, waited_ns);
  }
  return failures;
}

void GlobalLockTable::ThrowLockLost(const rdma::Client& client, const Lock& lock, uint64_t holder,
                                    uint32_t failures, uint64_t waited_ns) const {
  const uint64_t own_tag = TagOf(client);
  std::string who = "compute server " + std::to_string(holder - 1);
  if (holder == own_tag)
    who += " (this one: a coroutine of it holds the lock, or a CAS of ours ran twice)";
  throw LockLostError(
      "the lock of a node (lock word " + lock.word.ToString() + ") stayed taken by " + who +
      " for " + Milliseconds(waited_ns) + " over " + std::to_string(failures) +
      " failed CAS; a lock is held for microseconds, so it is lost, not contended: its holder "
      "died, its release never arrived or was overwritten (a fabric whose failing CAS stores "
      "the word back, where releases are WRITEs), or the fabric executed a CAS twice. The run "
      "cannot make progress");
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
