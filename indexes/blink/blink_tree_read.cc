// Lock-free reads: lookups and range queries.
#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

#include "indexes/blink/blink_tree.h"
#include "indexes/blink/blink_tree_internals.h"

namespace dmbench::indexes {

namespace {

// 4-bit versions wrap after 16 writes; a write takes well over 0.5 us, so a
// READ shorter than 16 x 0.5 us cannot have been fooled by a wrap-around
// (paper §4.4), and longer READs are retried. A memory server loaded past
// that latency makes every READ to it slow, and the retries keep it loaded:
// rather than spin for ever, an operation gives up after this many slow
// READs in a row and the run fails with the reason.
constexpr uint32_t kMaxConsecutiveSlowReads = 2000;

// A range query has at most this many leaf READs in flight: Sherman's
// kParaFetch (Tree::range_query posts 32, polls them, posts the next 32).
constexpr size_t kParallelLeafReads = 32;
// Leaves one index-cache lookup plans for a range without a limit. Sherman's
// range query plans the whole range from one lookup; this bounds the plan's
// memory on a range that spans most of the tree.
constexpr size_t kPlannedLeavesPerLookup = 4096;

std::string Microseconds(double ns) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g us", ns / 1000);
  return text;
}

// Says whether the window is too short for the node even on an idle fabric
// (no load could be blamed: the config cannot work) or the memory server is
// overloaded, by what an unloaded READ of the node takes when the backend
// knows it.
[[noreturn]] void SlowReadsFailure(rdma::GlobalAddress address, uint32_t node_bytes,
                                   uint64_t took_ns, double window_us,
                                   std::optional<uint64_t> unloaded_ns) {
  const std::string node = std::to_string(node_bytes) + "-byte node (index.node_bytes)";
  std::string what = std::to_string(kMaxConsecutiveSlowReads) + " READs in a row of node " +
                     address.ToString() + " outlasted the " + Microseconds(window_us * 1000) +
                     " version wrap window (index.wrap_window_us)";
  if (!unloaded_ns) {
    throw std::runtime_error(
        what + "; the last took " + Microseconds(static_cast<double>(took_ns)) +
        ". This backend does not know what an unloaded READ of this " + node +
        " takes: either memory server " + std::to_string(address.server) +
        " is overloaded, or one READ of such a node cannot fit the window on this hardware; "
        "reduce the load on it or raise index.wrap_window_us");
  }
  const double unloaded = static_cast<double>(*unloaded_ns);
  if (unloaded >= window_us * 1000) {
    throw std::runtime_error(
        what + ": an unloaded READ of this " + node + " takes " + Microseconds(unloaded) +
        " on this fabric, longer than the window itself, so no READ of it can ever be trusted, "
        "whatever the load (the last took " +
        Microseconds(static_cast<double>(took_ns)) + "); raise index.wrap_window_us well above " +
        Microseconds(unloaded) + " or lower index.node_bytes");
  }
  char slower[32];
  std::snprintf(slower, sizeof(slower), "%.1fx", static_cast<double>(took_ns) / unloaded);
  throw std::runtime_error(
      what + "; the last took " + Microseconds(static_cast<double>(took_ns)) +
      " where an unloaded READ of this " + node + " takes " + Microseconds(unloaded) +
      ": memory server " + std::to_string(address.server) + " is overloaded (queueing made " +
      "its READs " + slower + " slower) and Sherman's 4-bit versions cannot make progress " +
      "while it is; reduce the load on it (fewer clients, less skew) or raise " +
      "index.wrap_window_us");
}

}  // namespace

bool BLinkTree::TooSlowToTrust(rdma::Client& client, rdma::GlobalAddress address, uint64_t took_ns,
                               bool range_batch, IndexOpStats& stats, uint32_t& slow_reads) const {
  if (!format_.short_versions() || took_ns <= wrap_window_ns_) return false;
  const bool retried = options_.wrap_retry == WrapRetry::kAll ||
                       (options_.wrap_retry == WrapRetry::kLookups && !range_batch);
  if (!retried) {
    ++stats.slow_reads_trusted;
    return false;
  }
  ++stats.slow_read_retries;
  if (++slow_reads == kMaxConsecutiveSlowReads) {
    SlowReadsFailure(address, format_.node_bytes(), took_ns, options_.wrap_window_us,
                     client.UnloadedReadNanoseconds(address, format_.node_bytes()));
  }
  return true;
}

bool BLinkTree::SpeculativeLookup(rdma::Client& client, uint64_t key, uint64_t* value,
                                  IndexOpStats& stats) {
  const std::optional<EntryHint> hint = StateOf(client).hints->Find(key);
  if (!hint) return false;
  // The line lands where it sits in a whole leaf, so that the format reads
  // the slot from it as from a node; the slot's bytes lie inside the line.
  Scratch& scratch = ScratchOf(client);
  const uint32_t line = format_.SlotLineOffset(hint->slot);
  client.Read(hint->leaf + line, scratch.node.data() + line, NodeFormat::kLineBytes);
  LeafSlot entry;
  format_.DecodeSlot(scratch.node.data(), hint->slot, &entry);
  if (entry.key != key) {
    ++stats.speculative_misses;
    return false;
  }
  if (!format_.SlotPayloadIntact(scratch.node.data(), hint->slot)) ++stats.torn_entries_returned;
  ++stats.speculative_hits;
  *value = entry.value;
  return true;
}

bool BLinkTree::Lookup(rdma::Client& client, uint64_t key, uint64_t* value, IndexOpStats& stats) {
  KeyAddressCache* hints = StateOf(client).hints.get();
  if (hints != nullptr && SpeculativeLookup(client, key, value, stats)) return true;
  Scratch& scratch = ScratchOf(client);
  NodeImage& leaf = scratch.image;
  for (uint32_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
    rdma::GlobalAddress via;
    rdma::GlobalAddress address = Descend(client, key, 0, stats, &via);
    bool restart = false;
    uint32_t slow_reads = 0;
    while (!restart) {
      const uint64_t started = client.NowNanoseconds();
      client.Read(address, scratch.node.data(), format_.node_bytes());
      const uint64_t took = client.NowNanoseconds() - started;
      if (!NodeConsistent(client, scratch.node.data())) {
        ++stats.read_retries;
        continue;
      }
      if (TooSlowToTrust(client, address, took, /*range_batch=*/false, stats, slow_reads)) continue;
      slow_reads = 0;
      format_.DecodeHeader(scratch.node.data(), &leaf);
      if (leaf.free || leaf.level != 0 || key < leaf.low_fence) {
        ++stats.wrong_turns;
        if (!via.IsNull()) StateOf(client).cache.Invalidate(via);
        restart = true;
        break;
      }
      if (key >= leaf.high_fence) {
        if (leaf.sibling.IsNull()) throw std::logic_error("rightmost leaf does not cover its key");
        ++stats.sibling_chases;
        if (!via.IsNull()) StateOf(client).cache.Invalidate(via);
        via = rdma::GlobalAddress::Null();
        address = leaf.sibling;
        continue;
      }
      LeafSlot entry;
      const int slot = format_.FindLeafSlot(scratch.node.data(), key, &entry);
      if (slot < 0) {
        if (hints != nullptr) hints->Forget(key);
        return false;
      }
      if (!entry.consistent()) {
        ++stats.read_retries;
        continue;
      }
      if (!format_.SlotPayloadIntact(scratch.node.data(), static_cast<uint32_t>(slot))) {
        ++stats.torn_entries_returned;
      }
      if (hints != nullptr) hints->Remember(key, {address, static_cast<uint32_t>(slot)});
      *value = entry.value;
      return true;
    }
  }
  throw std::runtime_error("lookup of key " + std::to_string(key) + " did not converge");
}

size_t BLinkTree::ReadLeaves(rdma::Client& client, std::span<const rdma::GlobalAddress> leaves,
                             std::vector<std::vector<uint8_t>>& buffers,
                             std::vector<NodeImage>& images, IndexOpStats& stats) {
  size_t count = leaves.size();
  std::vector<size_t> pending(count);
  std::iota(pending.begin(), pending.end(), 0);
  std::vector<size_t> failed;
  std::map<uint16_t, std::vector<rdma::WorkRequest>> by_server;
  std::vector<std::span<rdma::WorkRequest>> batches;
  uint32_t slow_reads = 0;
  for (uint32_t attempt = 0; !pending.empty(); ++attempt) {
    if (attempt == kMaxAttempts) {
      throw std::runtime_error("range query: a leaf never passed its check");
    }
    // One batch per memory server, all in flight at once: one round trip.
    by_server.clear();
    for (size_t i : pending) {
      by_server[leaves[i].server].push_back({.verb = rdma::Verb::kRead,
                                             .remote = leaves[i],
                                             .local = buffers[i].data(),
                                             .length = format_.node_bytes()});
    }
    batches.clear();
    for (auto& [server, batch] : by_server) batches.emplace_back(batch);
    const uint64_t started = client.NowNanoseconds();
    client.ExecuteConcurrently(batches);
    const uint64_t took = client.NowNanoseconds() - started;
    if (TooSlowToTrust(client, leaves[pending.front()], took, /*range_batch=*/true, stats,
                       slow_reads)) {
      // Re-issue the whole batch once (a passing load spike); a batch slow
      // twice in a row is halved each time, down to one leaf, so that a
      // batch too big for the window still makes progress.
      if (slow_reads > 1 && count > 1) {
        count = (count + 1) / 2;
        std::erase_if(pending, [&](size_t i) { return i >= count; });
      }
      continue;
    }
    slow_reads = 0;
    failed.clear();
    for (size_t i : pending) {
      bool good = NodeConsistent(client, buffers[i].data());
      if (good) {
        format_.Decode(buffers[i].data(), &images[i]);
        good = std::all_of(images[i].slots.begin(), images[i].slots.end(),
                           [](const LeafSlot& slot) { return slot.consistent(); });
      }
      if (!good) {
        ++stats.read_retries;
        failed.push_back(i);
      }
    }
    pending.swap(failed);
  }
  return count;
}

void BLinkTree::RangeQuery(rdma::Client& client, uint64_t from, uint64_t to, size_t limit,
                           std::vector<KeyValue>* out, IndexOpStats& stats) {
  out->clear();
  Scratch& scratch = ScratchOf(client);
  // As Sherman's range query (Tree::range_query) does: one index-cache
  // lookup plans every leaf the range covers, and they are read
  // kParallelLeafReads at a time, each group one round trip. A scan with a
  // limit plans only what the limit needs at the bulkload fill.
  size_t per_round = kParallelLeafReads;
  size_t planned_per_lookup = kPlannedLeavesPerLookup;
  if (limit != 0) {
    per_round = std::clamp<size_t>(limit / std::max<uint32_t>(1, format_.leaf_capacity() / 2) + 1,
                                   1, kParallelLeafReads);
    planned_per_lookup = per_round;
  }
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<NodeImage> images;
  std::vector<rdma::GlobalAddress> leaves;
  // The leaves the last cache lookup planned; those from next_planned on
  // are still to be read. ends_at_gap: the lookup stopped where the cache's
  // coverage did, so what follows its last leaf is found through siblings.
  IndexCache::LeafRange planned;
  size_t next_planned = 0;
  bool ends_at_gap = false;
  uint64_t cursor = from;  // every key below it is done
  rdma::GlobalAddress next_hint = rdma::GlobalAddress::Null();
  uint32_t rounds = 0;
  while (cursor < to && (limit == 0 || out->size() < limit)) {
    if (++rounds > kMaxAttempts) throw std::runtime_error("range query did not converge");
    leaves.clear();
    if (next_planned == planned.leaves.size() && next_hint.IsNull()) {
      // Nothing planned left and no sibling to follow: plan from the cache.
      client.ChargeCpu(rdma::CpuWork::kIndexCacheLookup, 1);
      planned = StateOf(client).cache.FindLeaves(cursor, to, planned_per_lookup);
      next_planned = 0;
      ends_at_gap = planned.covered_until < to && planned.leaves.size() < planned_per_lookup;
      if (planned.leaves.empty()) {
        rdma::GlobalAddress via;
        next_hint = Descend(client, cursor, 0, stats, &via);
      } else {
        ++stats.cache_hits;
      }
    }
    const bool from_plan = next_planned < planned.leaves.size();
    if (from_plan) {
      const size_t take = std::min(per_round, planned.leaves.size() - next_planned);
      leaves.assign(planned.leaves.begin() + static_cast<std::ptrdiff_t>(next_planned),
                    planned.leaves.begin() + static_cast<std::ptrdiff_t>(next_planned + take));
      next_planned += take;
    } else {
      leaves.push_back(next_hint);
    }
    next_hint = rdma::GlobalAddress::Null();
    if (buffers.size() < leaves.size()) {
      buffers.resize(leaves.size(), std::vector<uint8_t>(format_.node_bytes()));
      images.resize(leaves.size());
    }
    const size_t requested = leaves.size();
    leaves.resize(ReadLeaves(client, leaves, buffers, images, stats));
    // Leaves left out of a slow batch are read next round, in batches no
    // bigger than the one that was fast enough.
    if (leaves.size() < requested) {
      per_round = leaves.size();
      if (from_plan) next_planned -= requested - leaves.size();
    }
    // Where the planned leaves stop matching the tree, the rest of the plan
    // is dropped and the walk goes on from the cursor.
    bool plan_stale = false;

    for (size_t i = 0; i < leaves.size(); ++i) {
      const std::vector<uint8_t>& bytes = buffers[i];
      const NodeImage& leaf = images[i];
      if (leaf.free || leaf.level != 0 || !leaf.Covers(cursor)) {
        // The cache's picture is stale here: a split moved the cursor's keys
        // to a right sibling, or the cached route is wrong; drop it.
        ++stats.wrong_turns;
        if (!leaf.free && leaf.level == 0 && cursor >= leaf.high_fence && !leaf.sibling.IsNull()) {
          next_hint = leaf.sibling;
        } else if (client.ChargeCpu(rdma::CpuWork::kIndexCacheLookup, 1);
                   auto route = StateOf(client).cache.FindLeaf(cursor)) {
          StateOf(client).cache.Invalidate(route->via);
        } else {
          ForgetTopLevels(client);
        }
        plan_stale = true;
        break;
      }
      scratch.sorted.clear();
      for (uint32_t slot = 0; slot < leaf.slots.size(); ++slot) {
        const LeafSlot& entry = leaf.slots[slot];
        if (entry.key == kNullKey || entry.key < cursor || entry.key >= to) continue;
        if (!format_.SlotPayloadIntact(bytes.data(), slot)) ++stats.torn_entries_returned;
        scratch.sorted.push_back(entry);
      }
      std::sort(scratch.sorted.begin(), scratch.sorted.end(),
                [](const LeafSlot& a, const LeafSlot& b) { return a.key < b.key; });
      // An unsorted leaf can show one key in two slots. Writing one entry
      // leaves the node's versions alone, so a READ that overlapped a delete
      // of the key and its re-insert into another slot passes its check,
      // having seen the old slot before the delete and the new one after the
      // insert. Each copy is a value the key held during this scan, so either
      // answers it; the scan returns the key once.
      const auto duplicates =
          std::unique(scratch.sorted.begin(), scratch.sorted.end(),
                      [](const LeafSlot& a, const LeafSlot& b) { return a.key == b.key; });
      scratch.sorted.erase(duplicates, scratch.sorted.end());
      for (const LeafSlot& entry : scratch.sorted) out->emplace_back(entry.key, entry.value);
      cursor = leaf.high_fence;
      if (cursor >= to || (limit != 0 && out->size() >= limit)) break;
      // The next leaf in key order is this one's sibling. If the plan's next
      // leaf is not it, the plan went stale and the sibling is read next; so
      // it is past the plan's end where the cache's coverage stopped, or
      // after a leaf the plan did not name.
      const bool batch_done = i + 1 == leaves.size();
      const bool plan_left = next_planned < planned.leaves.size();
      const rdma::GlobalAddress next = !batch_done ? leaves[i + 1]
                                       : plan_left ? planned.leaves[next_planned]
                                                   : rdma::GlobalAddress::Null();
      if (!next.IsNull() && next != leaf.sibling) {
        plan_stale = true;
        next_hint = leaf.sibling;
        break;
      }
      if (batch_done) {
        if (!plan_left && (!from_plan || ends_at_gap)) next_hint = leaf.sibling;
        break;
      }
    }
    if (plan_stale) {
      planned.leaves.clear();
      next_planned = 0;
    }
    if (cursor == kInfinity) break;
  }
  if (limit != 0 && out->size() > limit) out->resize(limit);
}

}  // namespace dmbench::indexes
