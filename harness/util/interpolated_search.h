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

// The first element of [begin, end) whose key_of(element) is greater than
// `key`, as std::upper_bound(begin, end, key, ...) finds it. The keys must
// ascend (not necessarily strictly). RandomIt is a random-access iterator;
// key_of maps an element to its uint64_t key.
template <typename RandomIt, typename KeyOf>
RandomIt InterpolatedUpperBound(RandomIt begin, RandomIt end, uint64_t key, KeyOf key_of) {
  const auto above = [&](const auto& element) { return key < key_of(element); };
  const auto count = static_cast<size_t>(end - begin);
  // Below a cache line or two of keys a binary search is as quick.
  if (count <= 8) {
    return std::partition_point(begin, end, [&](const auto& element) { return !above(element); });
  }
  const uint64_t first_key = key_of(begin[0]);
  const uint64_t last_key = key_of(begin[count - 1]);
  if (key < first_key) return begin;
  if (key >= last_key) return end;
  // first_key <= key < last_key. A guess needs no exact arithmetic, and a
  // double's division is several times quicker than a 128-bit integer one;
  // the clamp keeps rounding inside [0, count - 2].
  const double fraction =
      static_cast<double>(key - first_key) / static_cast<double>(last_key - first_key);
  const auto guess =
      std::min(static_cast<size_t>(fraction * static_cast<double>(count - 1)), count - 2);
  // Gallop away from the guess until the answer is bracketed: [low, high]
  // holds the first element above key.
  size_t low;
  size_t high;
  if (above(begin[guess])) {
    // The answer is at or before the guess; element 0 is not above key.
    high = guess;
    size_t step = 1;
    while (step < high && above(begin[high - step])) {
      high -= step;
      step *= 2;
    }
    low = step < high ? high - step + 1 : 1;
  } else {
    // The answer is after the guess; the last element is above key.
    low = guess + 1;
    size_t step = 1;
    while (low + step - 1 < count - 1 && !above(begin[low + step - 1])) {
      low += step;
      step *= 2;
    }
    high = std::min(low + step - 1, count - 1);
  }
  return std::partition_point(begin + static_cast<std::ptrdiff_t>(low),
                              begin + static_cast<std::ptrdiff_t>(high),
                              [&](const auto& element) { return !above(element); });
}

// For arrays of the keys themselves.
template <typename RandomIt>
RandomIt InterpolatedUpperBound(RandomIt begin, RandomIt end, uint64_t key) {
  return InterpolatedUpperBound(begin, end, key, [](uint64_t value) { return value; });
}

}  // namespace dmbench
