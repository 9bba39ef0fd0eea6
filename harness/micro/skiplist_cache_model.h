// The memory-access shape of the index cache the paper's code runs (Sherman's
// own IndexCache), so that `dmbench micro cpu` can time a lookup in it on
// this machine. It exists to price cpu_index_cache_lookup_ns for the paper's
// setup, not to cache anything: no index uses it.
//
// What makes the paper's lookup cost what it does, and is reproduced here:
//   * a skiplist (maximum height 21, each level kept with probability 1/4)
//     of entries ordered by their last covered key, whose nodes are
//     allocated one by one in the order the cache was filled (random key
//     order), so that every step of a search is a dependent load from an
//     unrelated address;
//   * each entry points at its own heap copy of a whole internal node
//     (node_bytes, 16-byte key/child records after a header), found by a
//     linear scan of the records, not a binary search;
//   * each hit increments a use counter inside that copy (a store to the
//     page, which the eviction policy reads).
// Our IndexCache (indexes/blink/index_cache.h) keeps what is cached, hit and
// evicted identical to the paper's policy with a sorted array instead; its
// own lookup is cheaper and is timed beside this one.
//
// Not thread-safe: built and searched by one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "indexes/blink/index_cache.h"

namespace dmbench::micro {

class SkiplistCacheModel {
 public:
  // Holds a copy of every node of `nodes` (well-formed, fence ranges
  // disjoint), inserted in an order shuffled by `seed`. node_bytes is the
  // size of each page copy and must hold the header and the largest node's
  // records (std::invalid_argument otherwise).
  SkiplistCacheModel(const std::vector<indexes::CachedInternalNode>& nodes, uint32_t node_bytes,
                     uint64_t seed);
  ~SkiplistCacheModel();

  SkiplistCacheModel(const SkiplistCacheModel&) = delete;
  SkiplistCacheModel& operator=(const SkiplistCacheModel&) = delete;

  // The packed address of the child covering `key`, or 0 when no entry
  // covers it.
  uint64_t FindLeaf(uint64_t key);

  size_t entries() const { return entries_; }

 private:
  static constexpr int kMaxHeight = 21;
  struct Node;
  struct Page;

  int RandomHeight();
  // The first node whose entry's last covered key is >= key, or null.
  Node* Seek(uint64_t key) const;
  void Insert(Node* node);

  uint64_t random_state_;
  int height_ = 1;
  size_t entries_ = 0;
  // Raw storage of a flexible size (a node's links, a page's records).
  struct FreeNode {
    void operator()(Node* node) const;
  };
  struct FreePage {
    void operator()(Page* page) const;
  };
  std::unique_ptr<Node, FreeNode> head_;
  std::vector<std::unique_ptr<Node, FreeNode>> nodes_;
  std::vector<std::unique_ptr<Page, FreePage>> pages_;
};

}  // namespace dmbench::micro
