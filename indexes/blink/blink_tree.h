// The B-link tree engine both indexes run on (FG+ and Sherman differ only in
// TreeOptions and their NodeLocker, which indexes/index_factory.cc picks). Nodes are spread over
// the memory servers; every compute server keeps an index cache of level-1 nodes and a copy of the
// top two levels; reads take no locks and check what they fetch; writes lock one node at a time.
//
// B-link rules (Lehman & Yao): every node has fence keys [low, high), its
// level and a right sibling pointer; a split moves the upper half of a node
// to a new right sibling and never changes the node's low fence, so a reader
// that lands on a node whose range ends below its key follows the sibling.
//
// Deletes clear the entry and never merge nodes: an emptied leaf stays in
// the tree, covering its range, and later inserts into that range reuse it
// (as in Sherman's implementation). Range queries read the leaves covering
// the range in parallel and are not atomic with concurrent writes (paper
// §4.4), but never miss a key that existed throughout the query.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "harness/rdma/client.h"
#include "indexes/blink/index_cache.h"
#include "indexes/blink/node_format.h"
#include "indexes/blink/tree_options.h"
#include "indexes/common/global_lock_table.h"
#include "indexes/common/index_op_stats.h"
#include "indexes/common/node_locker.h"
#include "indexes/index.h"

namespace dmbench::indexes {

class BulkloadImage;

class BLinkTree final : public Index {
 public:
  // Makes the tree's node locker over `table`, which was built from
  // `options`: the tree's lock options as its fabric can run them (ForFabric).
  using LockerFactory = std::function<std::unique_ptr<NodeLocker>(const GlobalLockTable& table,
                                                                  const LockOptions& options)>;

  // `options` must have passed Validate(shape).
  BLinkTree(const TreeOptions& options, const rdma::ClusterShape& shape,
            const LockerFactory& make_locker, uint64_t seed);
  ~BLinkTree() override;

  // The Index operations (indexes/index.h). Bulkload replaces whatever the
  // root pointer named.
  using Index::Bulkload;
  void Bulkload(rdma::Client& client, std::shared_ptr<const BulkloadSource> source,
                double fill_factor) override;
  bool Lookup(rdma::Client& client, uint64_t key, uint64_t* value, IndexOpStats& stats) override;
  void Prefetch(const rdma::Client& client, uint64_t key, size_t distance) override;
  void Upsert(rdma::Client& client, uint64_t key, uint64_t value, IndexOpStats& stats) override;
  bool Delete(rdma::Client& client, uint64_t key, IndexOpStats& stats) override;
  void RangeQuery(rdma::Client& client, uint64_t from, uint64_t to, size_t limit,
                  std::vector<KeyValue>* out, IndexOpStats& stats) override;

  // Levels in the tree (1: the root is a leaf), read from remote memory.
  uint32_t Height(rdma::Client& client);

  const NodeFormat& format() const { return format_; }
  const TreeOptions& options() const { return options_; }
  IndexCacheStats cache_stats(uint32_t compute_server) const;

 private:
  struct ComputeServerState;
  struct Scratch;

  ComputeServerState& StateOf(const rdma::Client& client) {
    return *compute_servers_[client.location().compute_server];
  }
  Scratch& ScratchOf(const rdma::Client& client) { return *scratch_[client.location().index]; }

  // Gives every compute server fresh state: an empty index cache, no top
  // levels, no hints. Set-up path: no client may be running.
  void ResetComputeServers();

  // Node I/O.
  rdma::GlobalAddress RootAddress(rdma::Client& client, bool refresh);
  // Whether a READ that took `took_ns` may have missed a wrap-around of 4-bit
  // versions and must be retried, as options().wrap_retry says for a READ of
  // a range query's batch or not (counted; an error after too many in a
  // row). A slow READ it trusts is counted as such.
  bool TooSlowToTrust(rdma::Client& client, rdma::GlobalAddress address, uint64_t took_ns,
                      bool range_batch, IndexOpStats& stats, uint32_t& slow_reads) const;
  // The node-level check and the encoding, with the CPU their checksum costs
  // charged to `client`.
  bool NodeConsistent(rdma::Client& client, const uint8_t* node) const;
  void EncodeNode(rdma::Client& client, const NodeImage& image, uint8_t* node) const;
  // Reads a node until it passes its node-level check, and decodes it.
  void ReadNode(rdma::Client& client, rdma::GlobalAddress address, std::vector<uint8_t>& bytes,
                NodeImage& image, IndexOpStats& stats);
  // ReadNode without the decoding.
  void ReadConsistent(rdma::Client& client, rdma::GlobalAddress address,
                      std::vector<uint8_t>& bytes, IndexOpStats& stats);
  // Speculative lookup's fast path: whether the line `key`'s hint names
  // still holds the key (its value then in *value). False when there is no
  // hint or the line holds something else; the caller takes the regular path.
  bool SpeculativeLookup(rdma::Client& client, uint64_t key, uint64_t* value, IndexOpStats& stats);
  // Reads and decodes `leaves` for a range query, all in flight at once,
  // re-issuing together those that fail their check or, after a READ round
  // longer than the wrap window, all of them (under TooSlowToTrust's bound).
  // Returns how many leading leaves were read: fewer than asked when rounds
  // kept outlasting the window and the batch was halved.
  size_t ReadLeaves(rdma::Client& client, std::span<const rdma::GlobalAddress> leaves,
                    std::vector<std::vector<uint8_t>>& buffers, std::vector<NodeImage>& images,
                    IndexOpStats& stats);
  // An internal node as Descend walks it. `image` holds its header, and its
  // entries unless `bytes` is set: then its child for a key is read from
  // `bytes` (NodeFormat::InternalChildFor).
  struct WalkedNode {
    const NodeImage* image;
    const uint8_t* bytes;
    rdma::GlobalAddress ChildFor(const NodeFormat& format, uint64_t key) const {
      return bytes != nullptr ? format.InternalChildFor(bytes, key) : image->ChildFor(key);
    }
  };
  // The internal node at `address`: the compute server's shared copy when it
  // keeps the top levels' (then *held keeps it alive), else the client's
  // scratch, which its next InternalNode call overwrites. Below the top
  // levels a node is used once, for one child, so it is decoded without an
  // allocation, and above level 1 (the level the index cache copies) only
  // its header is.
  WalkedNode InternalNode(rdma::Client& client, rdma::GlobalAddress address, IndexOpStats& stats,
                          std::shared_ptr<const NodeImage>* held);
  // The address of the node at `level` whose range should hold `key`, by the
  // cache and the top levels when they know, else by reading down from the
  // root. *via is the cached level-1 node that routed a leaf, if any.
  rdma::GlobalAddress Descend(rdma::Client& client, uint64_t key, uint8_t level,
                              IndexOpStats& stats, rdma::GlobalAddress* via);
  void ForgetTopLevels(rdma::Client& client);
  void DropTopLevelNode(rdma::Client& client, rdma::GlobalAddress address);
  void CacheLevelOne(rdma::Client& client, rdma::GlobalAddress address, const NodeImage& image);
  // What the index cache keeps of the level-1 node `image` at `address`, in
  // *copy (whose buffers it reuses).
  static void LevelOneCopy(rdma::GlobalAddress address, const NodeImage& image,
                           CachedInternalNode* copy);
  // index.cache_prewarm: gives every compute server's cache the level-1
  // nodes of the tree just bulkloaded as `image`, in key order until a
  // cache is full. Set-up path, before any client runs.
  void PrewarmCaches(const BulkloadImage& image);

  // Writes.
  enum class Mutation { kUpsert, kDelete };
  bool WriteLeaf(rdma::Client& client, uint64_t key, uint64_t value, Mutation mutation,
                 IndexOpStats& stats);
  // Writes `key`'s entry of the locked unsorted leaf in the scratch buffers
  // in place, as one entry WRITE, and unlocks; whether the write found what
  // it changes (as WriteLeaf returns it). Nothing when the leaf must split:
  // the caller then decodes the whole leaf and splits it, still locked.
  std::optional<bool> WriteEntryAndRelease(rdma::Client& client, rdma::GlobalAddress address,
                                           const LockGrant& grant, uint64_t key, uint64_t value,
                                           Mutation mutation, IndexOpStats& stats);
  // Locks the node at `level` covering `key` starting from `address`, moving
  // right under locks; returns it read in the scratch buffer, with only its
  // header decoded into the scratch image. `via`: the cached node that routed
  // to `address` (null if none), invalidated and cleared on a move right, as
  // a lookup does: it routes every key that moved to the wrong node.
  LockGrant LockCovering(rdma::Client& client, rdma::GlobalAddress& address, uint64_t key,
                         uint8_t level, IndexOpStats& stats, rdma::GlobalAddress& via,
                         bool* wrong_node);
  void InsertInternal(rdma::Client& client, uint64_t separator, rdma::GlobalAddress left,
                      rdma::GlobalAddress right, uint8_t level, IndexOpStats& stats);
  void GrowRoot(rdma::Client& client, uint64_t separator, rdma::GlobalAddress left,
                rdma::GlobalAddress right, uint8_t level, IndexOpStats& stats, bool* grown);
  // Splits the locked node in the scratch image (already holding the new
  // entry, one past capacity), writes both halves and unlocks.
  void SplitAndRelease(rdma::Client& client, rdma::GlobalAddress address, const LockGrant& grant,
                       IndexOpStats& stats);
  rdma::GlobalAddress WriteNewNode(rdma::Client& client, const NodeImage& image,
                                   std::vector<uint8_t>& bytes);
  NodeImage EmptyLeaf() const;

  TreeOptions options_;
  uint64_t wrap_window_ns_;
  uint64_t seed_;
  rdma::ClusterShape shape_;
  NodeFormat format_;
  // options_.locks() as the fabric of shape_ can run them, decided once for
  // the lock table and the locker alike.
  LockOptions lock_options_;
  GlobalLockTable lock_table_;
  std::unique_ptr<NodeLocker> locker_;
  // One copy of each cached node for every compute server's index cache.
  std::shared_ptr<CachedNodeStore> cached_nodes_ =
      std::make_shared<CachedNodeStore>(nullptr, !shape_.clients_share_one_thread);
  std::vector<std::unique_ptr<ComputeServerState>> compute_servers_;
  std::vector<std::unique_ptr<Scratch>> scratch_;
};

}  // namespace dmbench::indexes
