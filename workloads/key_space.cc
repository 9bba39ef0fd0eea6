#include "workloads/key_space.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "harness/util/random.h"

namespace dmbench::workloads {
namespace {

// Streams of the run seed, so that the two permutations are independent of each other and of
// any other component seeded from the same run seed.
constexpr uint64_t kRankStream = 0x72616e6b73ULL;   // "ranks"
constexpr uint64_t kLoadingStream = 0x6c6f6164ULL;  // "load"

void CheckInitialKey(uint64_t key, uint64_t size) {
  if (key < 1 || key > size) {
    throw std::out_of_range("KeySpace: key " + std::to_string(key) + " is outside [1, " +
                            std::to_string(size) + "]");
  }
}

}  // namespace

KeySpace::KeySpace(const WorkloadSpec& spec, uint64_t seed)
    : size_(spec.Validated().keys),
      ranks_(size_, DeriveSeed(seed, kRankStream)),
      bulkloaded_(size_, spec.BulkloadCount(),
                  KeyScrambler(size_, DeriveSeed(seed, kLoadingStream))),
      next_insert_key_(size_ + 1) {
  const uint64_t population = spec.ZipfPopulation();
  if (spec.distribution == KeyDistribution::kUniform) return;
  zipfian_ = std::make_shared<const ZipfianGenerator>(population, spec.theta);
  if (size_ > UINT32_MAX) return;
  std::vector<uint64_t> keys(std::min(size_, kHottestRanks));
  ranks_.PermuteRun(0, keys.size(), keys.data());
  hottest_keys_.reserve(keys.size());
  for (const uint64_t key : keys) hottest_keys_.push_back(static_cast<uint32_t>(key + 1));
}

uint64_t KeySpace::RankOfKey(uint64_t key) const {
  CheckInitialKey(key, size_);
  return ranks_.Inverse(key - 1);
}

uint64_t KeySpace::BulkloadedKey(uint64_t index) const {
  if (index >= bulkloaded_.count()) {
    throw std::out_of_range("KeySpace: bulkloaded key index " + std::to_string(index) +
                            " is outside [0, " + std::to_string(bulkloaded_.count()) + ")");
  }
  return bulkloaded_.At(index);
}

std::vector<std::pair<uint64_t, uint64_t>> KeySpace::BulkloadEntries(uint64_t value_seed) const {
  std::vector<std::pair<uint64_t, uint64_t>> entries;
  entries.reserve(bulkloaded_.count());
  // Walking the keys in order yields them sorted without a sort, and without holding the
  // permutation's image in memory next to the entries.
  for (uint64_t key = 1; key <= size_; ++key) {
    if (Bulkloaded(key)) entries.emplace_back(key, BulkloadValue(value_seed, key));
  }
  return entries;
}

uint64_t KeySpace::NextInsertKey() {
  const uint64_t key = next_insert_key_.fetch_add(1, std::memory_order_relaxed);
  if (key > kMaxKey) throw std::overflow_error("KeySpace: no new keys left to insert");
  return key;
}

}  // namespace dmbench::workloads
