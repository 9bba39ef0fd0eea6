// The index cache's entries ordered by low fence: a sorted array cut into
// chunks of at most kChunkSpans, with the chunks' first fences in an array of
// their own.
//
// One sorted array made every insertion shift half of it: at the paper's
// 1 B keys a cold cache grows to hundreds of thousands of entries and the
// shifts were a fifth of a simulation's time, the reallocations another tenth.
// Chunks bound a shift to one chunk and keep what a lookup touches contiguous
// (two searches, the first over an array a sixty-fourth the size). A chunk
// holds 64 spans: a cache that fills inserts into a chunk nobody has touched
// lately, and the shift of 256 spans (half of them on average, 4 KiB) missed
// on every line it moved, 7% of a 10 M-key simulation's CPU cache misses.
//
// `Span` has uint64_t low_fence and high_fence; spans do not overlap, so no
// two share a low fence. A pointer returned here stays valid until the next
// Insert or Erase, that is while version() is what it was when the pointer
// was returned. Not thread-safe: IndexCache guards it with its lock.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "harness/util/interpolated_search.h"

namespace dmbench::indexes {

template <typename Span>
class FenceOrderedSpans {
 public:
  // The span with the greatest low fence <= key, or nullptr.
  const Span* LastAtOrBelow(uint64_t key) const { return LastAtOrBelow(key, ChunkAtOrBelow(key)); }
  // The same, given what PrefetchAtOrBelow(key) returned while version() was
  // what it is now: the search of the chunks' index is spared.
  const Span* LastAtOrBelow(uint64_t key, size_t chunk) const {
    if (chunk == kNoChunk) return nullptr;
    const std::vector<Span>& spans = chunks_[chunk];
    const auto after = InterpolatedUpperBoundWithin(spans.begin(), spans.end(), key, kLowFenceOf,
                                                    chunk_low_[chunk], HighestLowFence(chunk));
    // The chunk's first span is at or below key, so the one found exists.
    return &*std::prev(after);
  }

  // Prefetches the lines where LastAtOrBelow(key) will look first: the
  // chunk's index is found (its arrays are small and usually cached), and
  // the spans its search loads first are prefetched. Returns the chunk, for
  // LastAtOrBelow(key, chunk) while version() stays as it is.
  size_t PrefetchAtOrBelow(uint64_t key) const {
    const size_t chunk = ChunkAtOrBelow(key);
    if (chunk == kNoChunk) return chunk;
    const std::vector<Span>& spans = chunks_[chunk];
    const size_t first = FirstProbe(spans.size(), key, chunk_low_[chunk], HighestLowFence(chunk));
    __builtin_prefetch(&spans[first]);
    if (first + 1 < spans.size()) __builtin_prefetch(&spans[first + 1]);
    return chunk;
  }
  // What PrefetchAtOrBelow returns for a key below every span.
  static constexpr size_t kNoChunk = ~size_t{0};

  // The span whose low fence is `low`, or nullptr.
  const Span* Find(uint64_t low) const {
    const Span* span = LastAtOrBelow(low);
    return span != nullptr && span->low_fence == low ? span : nullptr;
  }

  // Every span that overlaps [low, high), in fence order.
  std::vector<Span> Overlapping(uint64_t low, uint64_t high) const {
    std::vector<Span> found;
    size_t chunk = ChunkAtOrBelow(low);
    size_t index = 0;
    if (chunk == kNoChunk) {
      chunk = 0;
    } else {
      const std::vector<Span>& spans = chunks_[chunk];
      index = static_cast<size_t>(AfterLow(spans, low) - spans.begin());
      // The span at or below low overlaps if it reaches past low.
      if (spans[index - 1].high_fence > low) found.push_back(spans[index - 1]);
    }
    for (; chunk < chunks_.size(); ++chunk, index = 0) {
      for (; index < chunks_[chunk].size(); ++index) {
        if (chunks_[chunk][index].low_fence >= high) return found;
        found.push_back(chunks_[chunk][index]);
      }
    }
    return found;
  }

  // Changes with every Insert and Erase, and only then.
  uint64_t version() const { return version_; }

  // `span` must not overlap a span held.
  void Insert(const Span& span) {
    ++version_;
    if (chunks_.empty()) {
      chunks_.push_back({span});
      chunk_low_.push_back(span.low_fence);
      return;
    }
    size_t chunk = ChunkAtOrBelow(span.low_fence);
    if (chunk == kNoChunk) chunk = 0;  // below every span: the first chunk's new front
    std::vector<Span>& spans = chunks_[chunk];
    spans.insert(AfterLow(spans, span.low_fence), span);
    chunk_low_[chunk] = spans.front().low_fence;
    if (spans.size() <= kChunkSpans) return;
    // Split in halves, so that either half takes kChunkSpans / 2 more before
    // it splits again.
    const auto middle = spans.begin() + static_cast<std::ptrdiff_t>(spans.size() / 2);
    std::vector<Span> upper(middle, spans.end());
    spans.erase(middle, spans.end());
    chunk_low_.insert(chunk_low_.begin() + static_cast<std::ptrdiff_t>(chunk) + 1,
                      upper.front().low_fence);
    chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(chunk) + 1, std::move(upper));
  }

  // Removes the span whose low fence is `low`; returns whether there was one.
  bool Erase(uint64_t low) {
    ++version_;
    const size_t chunk = ChunkAtOrBelow(low);
    if (chunk == kNoChunk) return false;
    std::vector<Span>& spans = chunks_[chunk];
    const auto it = std::prev(AfterLow(spans, low));
    if (it->low_fence != low) return false;
    spans.erase(it);
    if (spans.empty()) {
      chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(chunk));
      chunk_low_.erase(chunk_low_.begin() + static_cast<std::ptrdiff_t>(chunk));
    } else {
      chunk_low_[chunk] = spans.front().low_fence;
    }
    return true;
  }

  size_t chunks() const { return chunks_.size(); }

  static constexpr size_t kChunkSpans = 64;

 private:
  // A lambda, not a function: a function passes as a pointer, and the
  // searches called it through that pointer for every probe. Inlined, a
  // 10 M-key read-intensive simulation counted 1.7% fewer instructions and
  // 12% fewer branch mispredictions.
  static constexpr auto kLowFenceOf = [](const Span& span) { return span.low_fence; };

  // The first span of `spans` whose low fence is above key. Fences of a
  // dense key space lie near a line, so the search interpolates.
  template <typename Spans>
  static auto AfterLow(Spans& spans, uint64_t key) {
    return InterpolatedUpperBound(spans.begin(), spans.end(), key, kLowFenceOf);
  }

  // A bound on the chunk's low fences: they lie from its own first one to
  // below the next chunk's first, bounds at hand in chunk_low_, where the
  // last span's fence would be a cache miss (InterpolatedUpperBoundWithin).
  uint64_t HighestLowFence(size_t chunk) const {
    if (chunk + 1 < chunk_low_.size()) return chunk_low_[chunk + 1];
    return chunks_[chunk].back().low_fence;
  }

  // The last chunk whose first low fence is <= key, or kNoChunk.
  size_t ChunkAtOrBelow(uint64_t key) const {
    // A key_of of this class's own, so that a profile's symbol for the
    // search names whom it serves (ae/bench-sim.sh --profile).
    const auto after = InterpolatedUpperBound(chunk_low_.begin(), chunk_low_.end(), key,
                                              [](uint64_t fence) { return fence; });
    return after == chunk_low_.begin() ? kNoChunk
                                       : static_cast<size_t>(after - chunk_low_.begin()) - 1;
  }

  std::vector<std::vector<Span>> chunks_;  // each non-empty and sorted; in fence order
  std::vector<uint64_t> chunk_low_;        // chunk_low_[i] == chunks_[i].front().low_fence
  uint64_t version_ = 0;
};

}  // namespace dmbench::indexes
