#include "workloads/client_workload.h"

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace dmbench::workloads {
namespace {

// An update re-draws until it hits a bulkloaded key, which takes 1 / bulkload_fraction draws on
// average; past this many (a tiny bulkload) it picks a bulkloaded key uniformly instead, so that
// an operation's cost stays bounded.
constexpr int kMaxUpdateDraws = 64;

}  // namespace

ClientWorkload::ClientWorkload(const WorkloadSpec& spec, KeySpace& keys, uint64_t seed,
                               uint32_t client_index, uint32_t clients)
    : keys_(keys),
      zipfian_(keys.zipfian()),
      distribution_(spec.Validated().distribution),
      range_size_(spec.range_size),
      scan_max_(spec.scan_max),
      latest_(spec.mix == "ycsb-d"),
      scans_(spec.mix == "ycsb-e"),
      role_(Role::kMix),
      client_index_(client_index),
      rng_(DeriveSeed(seed, client_index)) {
  if (clients == 0 || client_index >= clients || client_index >= kMaxClients) {
    throw std::invalid_argument("ClientWorkload: client index " + std::to_string(client_index) +
                                " is outside [0, " + std::to_string(clients) + ") or above " +
                                std::to_string(kMaxClients));
  }
  if (keys.size() != spec.keys) {
    throw std::invalid_argument("ClientWorkload: the KeySpace has " + std::to_string(keys.size()) +
                                " keys, the spec " + std::to_string(spec.keys));
  }
  if (distribution_ != KeyDistribution::kUniform &&
      (zipfian_ == nullptr || zipfian_->theta() != spec.theta ||
       zipfian_->items() != spec.ZipfPopulation())) {
    throw std::invalid_argument(
        "ClientWorkload: the KeySpace has no Zipfian generator with the spec's theta and rank "
        "population");
  }
  if (spec.split_clients) {
    // With one client there is no other half, so it takes both roles in turn.
    role_ = clients == 1            ? Role::kAlternate
            : client_index % 2 == 0 ? Role::kInsertOnly
                                    : Role::kRangeOnly;
  }
  const std::array<std::pair<double, OpType>, 5> fractions = {{{spec.insert, OpType::kInsert},
                                                               {spec.update, OpType::kUpdate},
                                                               {spec.lookup, OpType::kLookup},
                                                               {spec.remove, OpType::kDelete},
                                                               {spec.range, OpType::kRange}}};
  double sum = 0.0;
  for (const auto& [fraction, type] : fractions) {
    if (fraction <= 0.0) continue;
    sum += fraction;
    types_[type_count_] = type;
    cumulative_[type_count_] = sum;
    ++type_count_;
  }
  // The fractions sum to 1 only within rounding; the last type takes whatever draw is left.
  cumulative_[type_count_ - 1] = std::numeric_limits<double>::infinity();
}

OpType ClientWorkload::NextType() {
  switch (role_) {
    case Role::kInsertOnly:
      return OpType::kInsert;
    case Role::kRangeOnly:
      return OpType::kRange;
    case Role::kAlternate:
      return operations_ % 2 == 0 ? OpType::kInsert : OpType::kRange;
    case Role::kMix:
      break;
  }
  const double draw = rng_.NextDouble();
  size_t index = 0;
  while (draw >= cumulative_[index]) ++index;
  return types_[index];
}

uint64_t ClientWorkload::DrawRank() {
  if (distribution_ == KeyDistribution::kUniform) return rng_.Uniform(keys_.size());
  return keys_.FoldRank(zipfian_->Next(rng_));
}

uint64_t ClientWorkload::DrawBulkloadedKey() {
  for (int draw = 0; draw < kMaxUpdateDraws; ++draw) {
    const uint64_t key = DrawKey();
    if (keys_.Bulkloaded(key)) return key;
  }
  return keys_.BulkloadedKey(rng_.Uniform(keys_.bulkload_count()));
}

// YCSB's SkewedLatestGenerator: Zipfian distance back from the newest key. The distances follow
// the Zipfian over the initial N keys rather than over the current count, since rebuilding the
// generator for a growing count costs O(N); while the inserted keys are few next to N the
// difference is negligible, and the oldest keys are never read.
uint64_t ClientWorkload::DrawLatestKey() {
  const uint64_t distance = zipfian_->Next(rng_);
  const uint64_t latest = keys_.LatestKey();
  return latest > distance ? latest - distance : 1;
}

Operation ClientWorkload::Next() {
  Operation op{NextType(), 0, ValueOf(client_index_, operations_), 0, 0};
  switch (op.type) {
    case OpType::kInsert:
      op.key = latest_ ? keys_.NextInsertKey() : DrawKey();
      break;
    case OpType::kUpdate:
      op.key = DrawBulkloadedKey();
      break;
    case OpType::kLookup:
      op.key = latest_ ? DrawLatestKey() : DrawKey();
      break;
    case OpType::kDelete:
      op.key = DrawKey();
      break;
    case OpType::kRange:
      op.key = DrawKey();
      if (scans_) {
        op.range_end = kNoRangeEnd;
        op.limit = 1 + rng_.Uniform(scan_max_);
      } else {
        op.range_end = op.key > kNoRangeEnd - range_size_ ? kNoRangeEnd : op.key + range_size_;
      }
      break;
  }
  ++operations_;
  return op;
}

}  // namespace dmbench::workloads
