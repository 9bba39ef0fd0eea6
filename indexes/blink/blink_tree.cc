#include "indexes/blink/blink_tree.h"

#include <mutex>
#include <stdexcept>
#include <string>

#include "harness/rdma/chunk_allocator.h"
#include "harness/rdma/errors.h"
#include "harness/util/random.h"
#include "indexes/blink/blink_tree_internals.h"
#include "indexes/common/index_layout.h"

namespace dmbench::indexes {

namespace {
const rdma::GlobalAddress kRootPointer =
    rdma::GlobalAddress::Host(0, IndexLayout::kRootPointerOffset);

// Validates before any member is built from the options, so that a bad
// combination is reported as the ConfigError naming its fields.
const TreeOptions& Validated(const TreeOptions& options, const rdma::ClusterShape& shape) {
  options.Validate(shape);
  return options;
}
}  // namespace

BLinkTree::BLinkTree(const TreeOptions& options, const rdma::ClusterShape& shape,
                     const LockerFactory& make_locker, uint64_t seed)
    : options_(Validated(options, shape)),
      wrap_window_ns_(static_cast<uint64_t>(options.wrap_window_us * 1000)),
      seed_(seed),
      shape_(shape),
      format_(options),
      lock_options_(ForFabric(options.locks(), shape)),
      lock_table_(lock_options_) {
  locker_ = make_locker(lock_table_, lock_options_);
  compute_servers_.resize(shape.compute_servers);
  ResetComputeServers();
  for (uint32_t i = 0; i < shape.clients; ++i) {
    scratch_.push_back(std::make_unique<Scratch>(options.node_bytes));
  }
}

BLinkTree::~BLinkTree() = default;

void BLinkTree::ResetComputeServers() {
  for (size_t i = 0; i < compute_servers_.size(); ++i) {
    compute_servers_[i] = std::make_unique<ComputeServerState>(
        options_, DeriveSeed(seed_, i), cached_nodes_, !shape_.clients_share_one_thread);
  }
}

IndexCacheStats BLinkTree::cache_stats(uint32_t compute_server) const {
  return compute_servers_.at(compute_server)->cache.stats();
}

NodeImage BLinkTree::EmptyLeaf() const {
  NodeImage leaf;
  if (format_.unsorted_leaves()) leaf.slots.resize(format_.leaf_capacity());
  return leaf;
}

rdma::GlobalAddress BLinkTree::RootAddress(rdma::Client& client, bool refresh) {
  ComputeServerState& state = StateOf(client);
  if (!refresh) {
    std::shared_lock guard(state.top_mutex);
    if (!state.root.IsNull()) return state.root;
  }
  uint64_t packed = 0;
  client.Read(kRootPointer, &packed, sizeof(packed));
  if (packed == 0) throw std::logic_error("the tree has no root: bulkload it first");
  const rdma::GlobalAddress root = rdma::GlobalAddress::Unpack(packed);
  std::unique_lock guard(state.top_mutex);
  if (state.root != root) {
    state.root = root;
    state.top_nodes.clear();
  }
  return root;
}

uint32_t BLinkTree::Height(rdma::Client& client) {
  IndexOpStats ignored;
  Scratch& scratch = ScratchOf(client);
  ReadNode(client, RootAddress(client, /*refresh=*/true), scratch.parent, scratch.image, ignored);
  return uint32_t{scratch.image.level} + 1;
}

void BLinkTree::ForgetTopLevels(rdma::Client& client) {
  ComputeServerState& state = StateOf(client);
  std::unique_lock guard(state.top_mutex);
  state.root = rdma::GlobalAddress::Null();
  state.top_nodes.clear();
}

void BLinkTree::DropTopLevelNode(rdma::Client& client, rdma::GlobalAddress address) {
  ComputeServerState& state = StateOf(client);
  std::unique_lock guard(state.top_mutex);
  state.top_nodes.erase(address.Pack());
}

bool BLinkTree::NodeConsistent(rdma::Client& client, const uint8_t* node) const {
  if (const uint32_t bytes = format_.checksummed_bytes()) {
    client.ChargeCpu(rdma::CpuWork::kCrcByte, bytes);
  }
  return format_.NodeConsistent(node);
}

void BLinkTree::EncodeNode(rdma::Client& client, const NodeImage& image, uint8_t* node) const {
  if (const uint32_t bytes = format_.checksummed_bytes()) {
    client.ChargeCpu(rdma::CpuWork::kCrcByte, bytes);
  }
  format_.Encode(image, node);
}

void BLinkTree::ReadNode(rdma::Client& client, rdma::GlobalAddress address,
                         std::vector<uint8_t>& bytes, NodeImage& image, IndexOpStats& stats) {
  ReadConsistent(client, address, bytes, stats);
  format_.Decode(bytes.data(), &image);
}

void BLinkTree::ReadConsistent(rdma::Client& client, rdma::GlobalAddress address,
                               std::vector<uint8_t>& bytes, IndexOpStats& stats) {
  for (uint32_t attempt = 0;; ++attempt) {
    if (attempt == kMaxAttempts) {
      throw std::runtime_error("node " + address.ToString() + " never passed its " +
                               ConsistencyName(format_.consistency()) + " check");
    }
    client.Read(address, bytes.data(), format_.node_bytes());
    if (NodeConsistent(client, bytes.data())) break;
    ++stats.read_retries;
  }
}

BLinkTree::WalkedNode BLinkTree::InternalNode(rdma::Client& client, rdma::GlobalAddress address,
                                              IndexOpStats& stats,
                                              std::shared_ptr<const NodeImage>* held) {
  ComputeServerState& state = StateOf(client);
  {
    std::shared_lock guard(state.top_mutex);
    auto cached = state.top_nodes.find(address.Pack());
    if (cached != state.top_nodes.end()) {
      *held = cached->second;
      return {held->get(), nullptr};
    }
  }
  Scratch& scratch = ScratchOf(client);
  NodeImage& image = scratch.internal;
  const uint8_t* bytes = scratch.parent.data();
  ReadConsistent(client, address, scratch.parent, stats);
  // Level 1 is what the index cache copies (and a leaf here is a wrong turn);
  // above it, the entries are decoded only for the top levels' copy.
  bool decoded = false;
  format_.DecodeHeader(bytes, &image);
  if (image.level <= 1) {
    format_.Decode(bytes, &image);
    decoded = true;
  }
  held->reset();
  {
    std::unique_lock guard(state.top_mutex);
    // The root and the level below it are always cached (paper §4.2.3).
    if (!image.free && image.level + 1 >= state.root_level && image.level > 0) {
      // Once per node until it is dropped, so decoding under the lock is rare.
      if (!decoded) format_.Decode(bytes, &image);
      *held = std::make_shared<const NodeImage>(image);
      state.top_nodes[address.Pack()] = *held;
    }
    if (address == state.root) state.root_level = image.level;
  }
  if (*held) return {held->get(), nullptr};
  if (decoded) return {&image, nullptr};
  image.entries.clear();  // none decoded: InternalChildFor reads them
  image.slots.clear();
  return {&image, bytes};
}

void BLinkTree::LevelOneCopy(rdma::GlobalAddress address, const NodeImage& image,
                             CachedInternalNode* copy) {
  copy->address = address;
  copy->low_fence = image.low_fence;
  copy->high_fence = image.high_fence;
  copy->leftmost_child = image.leftmost;
  copy->children.clear();
  copy->children.reserve(image.entries.size());
  for (const InternalEntry& entry : image.entries)
    copy->children.emplace_back(entry.key, entry.child);
}

void BLinkTree::CacheLevelOne(rdma::Client& client, rdma::GlobalAddress address,
                              const NodeImage& image) {
  CachedInternalNode& copy = ScratchOf(client).level_one;
  LevelOneCopy(address, image, &copy);
  StateOf(client).cache.Insert(copy);
}

void BLinkTree::Prefetch(const rdma::Client& client, uint64_t key, size_t distance) {
  StateOf(client).cache.Prefetch(key, distance, &ScratchOf(client).cache_lookup_hints);
}

rdma::GlobalAddress BLinkTree::Descend(rdma::Client& client, uint64_t key, uint8_t level,
                                       IndexOpStats& stats, rdma::GlobalAddress* via) {
  *via = rdma::GlobalAddress::Null();
  if (level == 0) {
    client.ChargeCpu(rdma::CpuWork::kIndexCacheLookup, 1);
    if (auto route = StateOf(client).cache.FindLeaf(key, &ScratchOf(client).cache_lookup_hints)) {
      ++stats.cache_hits;
      *via = route->via;
      return route->leaf;
    }
    ++stats.cache_misses;
  }
  for (uint32_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
    rdma::GlobalAddress address = RootAddress(client, attempt > 0);
    std::shared_ptr<const NodeImage> held;
    WalkedNode walked = InternalNode(client, address, stats, &held);
    const NodeImage* node = walked.image;
    if (node->level < level) return rdma::GlobalAddress::Null();  // the tree is not that tall yet
    rdma::GlobalAddress parent = rdma::GlobalAddress::Null();
    bool wrong_turn = false;
    while (!wrong_turn) {
      if (node->free || !node->Covers(key)) {
        if (!node->free && key >= node->high_fence && !node->sibling.IsNull()) {
          // A split the copy we came through does not know yet: move right,
          // and re-read that copy next time.
          ++stats.sibling_chases;
          if (!parent.IsNull()) DropTopLevelNode(client, parent);
          address = node->sibling;
          walked = InternalNode(client, address, stats, &held);
          node = walked.image;
          continue;
        }
        wrong_turn = true;
        break;
      }
      if (node->level == level) return address;
      const rdma::GlobalAddress child = walked.ChildFor(format_, key);
      if (node->level == 1) {
        CacheLevelOne(client, address, *node);
        *via = address;
      }
      if (node->level == level + 1) return child;
      const uint8_t child_level = node->level - 1;
      parent = address;
      address = child;
      walked = InternalNode(client, address, stats, &held);
      node = walked.image;
      wrong_turn = node->level != child_level;
    }
    ++stats.wrong_turns;
    ForgetTopLevels(client);
  }
  throw std::runtime_error("no path to key " + std::to_string(key) + " at level " +
                           std::to_string(level));
}

rdma::GlobalAddress BLinkTree::WriteNewNode(rdma::Client& client, const NodeImage& image,
                                            std::vector<uint8_t>& bytes) {
  const rdma::GlobalAddress address = client.allocator().Allocate(client, format_.node_bytes());
  EncodeNode(client, image, bytes.data());
  client.Write(address, bytes.data(), format_.node_bytes());
  return address;
}

}  // namespace dmbench::indexes
