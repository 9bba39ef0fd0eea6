#include "harness/micro/skiplist_cache_model.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>

#include "harness/util/random.h"

namespace dmbench::micro {

// The header of a heap copy of one internal node; `records` (key, child)
// records follow it, to the end of the node_bytes copy.
struct SkiplistCacheModel::Page {
  struct Record {
    uint64_t key;
    uint64_t child;
  };
  uint64_t leftmost_child;
  uint64_t use_count;  // bumped by every hit, read by eviction
  uint32_t records;
  uint32_t reserved;
  uint64_t high_fence;

  Record* record() { return reinterpret_cast<Record*>(this + 1); }
};

// A skiplist node's entry; `height` forward links follow it.
struct SkiplistCacheModel::Node {
  uint64_t from;
  uint64_t last;  // the largest key covered: the order of the list
  Page* page;
  int height;

  Node** next() { return reinterpret_cast<Node**>(this + 1); }

  static Node* New(int height) {
    return static_cast<Node*>(::operator new(sizeof(Node) + height * sizeof(Node*)));
  }
};

void SkiplistCacheModel::FreeNode::operator()(Node* node) const { ::operator delete(node); }

void SkiplistCacheModel::FreePage::operator()(Page* page) const { std::free(page); }

SkiplistCacheModel::SkiplistCacheModel(const std::vector<indexes::CachedInternalNode>& nodes,
                                       uint32_t node_bytes, uint64_t seed)
    : random_state_(DeriveSeed(seed, 0x5C1B)) {
  for (const indexes::CachedInternalNode& source : nodes) {
    if (sizeof(Page) + source.children.size() * sizeof(Page::Record) > node_bytes) {
      throw std::invalid_argument(
          "SkiplistCacheModel: a node of " + std::to_string(source.children.size()) +
          " separators does not fit node_bytes " + std::to_string(node_bytes));
    }
  }
  head_.reset(Node::New(kMaxHeight));
  head_->from = head_->last = 0;
  head_->page = nullptr;
  head_->height = kMaxHeight;
  std::fill(head_->next(), head_->next() + kMaxHeight, nullptr);

  std::vector<size_t> order(nodes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  Random random(seed);
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random.Uniform(i)]);

  nodes_.reserve(nodes.size());
  pages_.reserve(nodes.size());
  for (size_t index : order) {
    const indexes::CachedInternalNode& source = nodes[index];
    // As the paper's cache does on a miss: copy the page, then link an entry.
    std::unique_ptr<Page, FreePage> page(static_cast<Page*>(std::malloc(node_bytes)));
    if (page == nullptr) throw std::bad_alloc();
    page->leftmost_child = source.leftmost_child.Pack();
    page->use_count = 0;
    page->records = static_cast<uint32_t>(source.children.size());
    page->high_fence = source.high_fence;
    for (size_t i = 0; i < source.children.size(); ++i) {
      page->record()[i] = {source.children[i].first, source.children[i].second.Pack()};
    }
    const int height = RandomHeight();
    std::unique_ptr<Node, FreeNode> node(Node::New(height));
    node->from = source.low_fence;
    node->last = source.high_fence - 1;
    node->page = page.get();
    node->height = height;
    pages_.push_back(std::move(page));
    Insert(node.get());
    nodes_.push_back(std::move(node));
  }
}

SkiplistCacheModel::~SkiplistCacheModel() = default;

int SkiplistCacheModel::RandomHeight() {
  int height = 1;
  while (height < kMaxHeight && SplitMix64(random_state_) % 4 == 0) ++height;
  return height;
}

SkiplistCacheModel::Node* SkiplistCacheModel::Seek(uint64_t key) const {
  Node* at = head_.get();
  for (int level = height_ - 1; level >= 0; --level) {
    while (at->next()[level] != nullptr && at->next()[level]->last < key) at = at->next()[level];
  }
  return at->next()[0];
}

void SkiplistCacheModel::Insert(Node* node) {
  Node* before[kMaxHeight];
  Node* at = head_.get();
  for (int level = kMaxHeight - 1; level >= 0; --level) {
    while (at->next()[level] != nullptr && at->next()[level]->last < node->last) {
      at = at->next()[level];
    }
    before[level] = at;
  }
  height_ = std::max(height_, node->height);
  for (int level = 0; level < node->height; ++level) {
    node->next()[level] = before[level]->next()[level];
    before[level]->next()[level] = node;
  }
  ++entries_;
}

uint64_t SkiplistCacheModel::FindLeaf(uint64_t key) {
  const Node* node = Seek(key);
  if (node == nullptr || node->from > key) return 0;
  Page* page = node->page;
  ++page->use_count;
  const uint32_t records = page->records;
  const Page::Record* record = page->record();
  if (records == 0 || key < record[0].key) return page->leftmost_child;
  for (uint32_t i = 1; i < records; ++i) {
    if (key < record[i].key) return record[i - 1].child;
  }
  return record[records - 1].child;
}

}  // namespace dmbench::micro
