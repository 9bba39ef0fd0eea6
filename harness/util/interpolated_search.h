// std::upper_bound for sorted arrays of 64-bit keys that are spread about
// evenly over their range: a guess by linear interpolation, then a gallop
// from the guess and a binary search inside the gallop's last step.
//
// A simulation's key space is dense ([1, N], most keys loaded), so the fences
// and separators of a B+Tree's internal nodes, and the offsets of nodes in a
// memory server, lie close to a straight line. A binary search over them
// makes log2(n) dependent loads, and in a simulation's working set the last
// few are cache misses; the guess lands within a few entries, so the
// gallop's first loads fall in one or two cache lines. On keys that are not
// spread evenly the gallop makes at most about twice a binary search's
// steps; the result is std::upper_bound's either way.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace dmbench {

namespace interpolated_search_internal {

// The first element of [begin, begin + count) above `key`, galloping from
// element `guess` (< count) until the answer is bracketed, then bisecting
// the gallop's last step. Correct from any guess; a good one makes it quick.
template <typename RandomIt, typename KeyOf>
RandomIt UpperBoundFrom(RandomIt begin, size_t count, size_t guess, uint64_t key, KeyOf key_of) {
  const auto above = [&](const auto& element) { return key < key_of(element); };
  size_t low;
  size_t high;
  if (above(begin[guess])) {
    // The answer is at or before the guess.
    high = guess;
    size_t step = 1;
    while (step <= high && above(begin[high - step])) {
      high -= step;
      step *= 2;
    }
    low = step <= high ? high - step + 1 : 0;
  } else {
    // The answer is after the guess (count: none is above key).
    low = guess + 1;
    size_t step = 1;
    while (low + step - 1 < count && !above(begin[low + step - 1])) {
      low += step;
      step *= 2;
    }
    high = std::min(low + step - 1, count);
  }
  return std::partition_point(begin + static_cast<std::ptrdiff_t>(low),
                              begin + static_cast<std::ptrdiff_t>(high),
                              [&](const auto& element) { return !above(element); });
}

// Where `key` would sit among `count` keys spread evenly over [lowest,
// highest], in [0, count - 1]. A guess needs no exact arithmetic, and a
// double's division is several times quicker than a 128-bit integer one.
inline size_t Guess(uint64_t key, uint64_t lowest, uint64_t highest, size_t count) {
  if (key <= lowest || highest <= lowest) return 0;
  if (key >= highest) return count - 1;
  const double fraction = static_cast<double>(key - lowest) / static_cast<double>(highest - lowest);
  return std::min(static_cast<size_t>(fraction * static_cast<double>(count - 1)), count - 1);
}

// Up to this many keys the searches bisect: with a cache line or two of
// keys a binary search is as quick.
inline constexpr size_t kBisectUpTo = 8;

}  // namespace interpolated_search_internal

// The first element of [begin, end) whose key_of(element) is greater than
// `key`, as std::upper_bound(begin, end, key, ...) finds it. The keys must
// ascend (not necessarily strictly). RandomIt is a random-access iterator;
// key_of maps an element to its uint64_t key. The keys are known to lie in
// [lowest, highest], and the guess comes from those bounds: a caller that
// knows them spares loading the first and last keys, often two cache misses
// (a lookup in the index cache knows a node's fences, between which its
// separators lie). The bounds steer only the guess: wrong ones cost time,
// never the answer.
template <typename RandomIt, typename KeyOf>
RandomIt InterpolatedUpperBoundWithin(RandomIt begin, RandomIt end, uint64_t key, KeyOf key_of,
                                      uint64_t lowest, uint64_t highest) {
  const auto count = static_cast<size_t>(end - begin);
  if (count <= interpolated_search_internal::kBisectUpTo) {
    return std::partition_point(begin, end,
                                [&](const auto& element) { return !(key < key_of(element)); });
  }
  return interpolated_search_internal::UpperBoundFrom(
      begin, count, interpolated_search_internal::Guess(key, lowest, highest, count), key, key_of);
}

// The same, bounded by the array's first and last keys, which also answer
// the keys outside them.
template <typename RandomIt, typename KeyOf>
RandomIt InterpolatedUpperBound(RandomIt begin, RandomIt end, uint64_t key, KeyOf key_of) {
  const auto count = static_cast<size_t>(end - begin);
  // (Bisecting, the search reads no bounds.)
  if (count <= interpolated_search_internal::kBisectUpTo) {
    return InterpolatedUpperBoundWithin(begin, end, key, key_of, 0, UINT64_MAX);
  }
  const uint64_t first_key = key_of(begin[0]);
  const uint64_t last_key = key_of(begin[count - 1]);
  if (key < first_key) return begin;
  if (key >= last_key) return end;
  return InterpolatedUpperBoundWithin(begin, end, key, key_of, first_key, last_key);
}

// The index of the element that InterpolatedUpperBoundWithin(begin, begin
// + count, key, key_of, lowest, highest) loads first (count > 0): for a
// caller that knows a search's key before it searches and prefetches that
// element and the next, where the gallop steps first.
inline size_t FirstProbe(size_t count, uint64_t key, uint64_t lowest, uint64_t highest) {
  // std::partition_point, bisecting, loads the middle first.
  return count <= interpolated_search_internal::kBisectUpTo
             ? count / 2
             : interpolated_search_internal::Guess(key, lowest, highest, count);
}

// For arrays of the keys themselves.
template <typename RandomIt>
RandomIt InterpolatedUpperBound(RandomIt begin, RandomIt end, uint64_t key) {
  return InterpolatedUpperBound(begin, end, key, [](uint64_t value) { return value; });
}
template <typename RandomIt>
RandomIt InterpolatedUpperBoundWithin(RandomIt begin, RandomIt end, uint64_t key, uint64_t lowest,
                                      uint64_t highest) {
  return InterpolatedUpperBoundWithin(
      begin, end, key, [](uint64_t value) { return value; }, lowest, highest);
}

}  // namespace dmbench
