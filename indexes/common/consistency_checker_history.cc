// ConsistencyChecker::SaveHistory and LoadHistory: the binary history format.
//
// Layout, all integers little-endian so a history reads back on any host:
//   magic "DMBHIST" + NUL, u32 version, u64 operations, u64 ranges,
//   per operation: u64 key, u64 arg, u64 invoke, u64 response, u32 client,
//                  u8 kind, u8 flag   (arg of a range: index of its range)
//   per range:     u64 to, u64 limit, u64 pairs, then pairs x (u64 key, u64 value).
#include <array>
#include <concepts>
#include <istream>
#include <iterator>
#include <limits>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "harness/rdma/errors.h"
#include "indexes/common/consistency_checker.h"

namespace dmbench::indexes {
namespace {

using Op = internal::RecordedOp;
using OpKind = internal::OpKind;
using RangeOp = internal::RecordedRange;

constexpr std::array<char, 8> kMagic = {'D', 'M', 'B', 'H', 'I', 'S', 'T', '\0'};
constexpr uint32_t kVersion = 1;

[[noreturn]] void Fail(const std::string& what) { throw ConfigError("history file: " + what); }

class HistoryWriter {
 public:
  explicit HistoryWriter(std::ostream& out) : out_(out) {}

  template <std::unsigned_integral T>
  void Put(T value) {
    std::array<char, sizeof(T)> bytes;
    for (size_t i = 0; i < sizeof(T); ++i) bytes[i] = static_cast<char>(value >> (8 * i));
    out_.write(bytes.data(), bytes.size());
  }

 private:
  std::ostream& out_;
};

class HistoryReader {
 public:
  explicit HistoryReader(std::istream& in) : in_(in) {}

  static constexpr uint64_t kNoIndex = std::numeric_limits<uint64_t>::max();

  // `part` and `index` name where a truncated stream ended, for the error;
  // they are only formatted then, since a history has millions of fields.
  template <std::unsigned_integral T>
  T Get(const char* part, uint64_t index = kNoIndex) {
    std::array<unsigned char, sizeof(T)> bytes;
    if (!in_.read(reinterpret_cast<char*>(bytes.data()), bytes.size())) {
      std::string where = part;
      if (index != kNoIndex) where.append(" ").append(std::to_string(index));
      Fail("truncated in " + where);
    }
    T value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(T{bytes[i]} << (8 * i));
    return value;
  }

 private:
  std::istream& in_;
};

uint64_t EarlierBy(uint64_t time, uint64_t widen_ns) {
  return time > widen_ns ? time - widen_ns : 0;
}

uint64_t LaterBy(uint64_t time, uint64_t widen_ns) {
  const uint64_t latest = std::numeric_limits<uint64_t>::max();
  return time > latest - widen_ns ? latest : time + widen_ns;
}

// `range_ordinal`: how many range operations came before this one.
Op ReadOp(HistoryReader& reader, uint64_t index, uint64_t range_ordinal, uint64_t widen_ns) {
  Op op;
  op.key = reader.Get<uint64_t>("operation", index);
  op.arg = reader.Get<uint64_t>("operation", index);
  op.invoke = reader.Get<uint64_t>("operation", index);
  op.response = reader.Get<uint64_t>("operation", index);
  op.client = reader.Get<uint32_t>("operation", index);
  const uint8_t kind = reader.Get<uint8_t>("operation", index);
  const uint8_t flag = reader.Get<uint8_t>("operation", index);
  const std::string which = "operation " + std::to_string(index);
  if (kind > static_cast<uint8_t>(OpKind::kRange)) {
    Fail(which + " has kind " + std::to_string(kind) + " (allowed: 0 to 3)");
  }
  if (flag > 1) Fail(which + " has flag " + std::to_string(flag) + " (allowed: 0 or 1)");
  op.kind = static_cast<OpKind>(kind);
  op.flag = flag == 1;
  // SaveHistory writes the ranges in their operations' order; two operations
  // sharing a range would leave a range unchecked. A range operation beyond
  // the last range fails the count check after the operations.
  if (op.kind == OpKind::kRange && op.arg != range_ordinal) {
    Fail(which + " refers to range " + std::to_string(op.arg) + ", but it is range operation " +
         std::to_string(range_ordinal) + " (the n-th range operation has the n-th range)");
  }
  // An interval that was already invalid (response before invoke) stays as
  // it is: widening could otherwise hide the problem.
  if (op.invoke <= op.response) {
    op.invoke = EarlierBy(op.invoke, widen_ns);
    op.response = LaterBy(op.response, widen_ns);
  }
  return op;
}

RangeOp ReadRange(HistoryReader& reader, uint64_t index) {
  RangeOp range;
  range.to = reader.Get<uint64_t>("range", index);
  range.limit = reader.Get<uint64_t>("range", index);
  const uint64_t pairs = reader.Get<uint64_t>("range", index);
  // Not reserved up front: a corrupt count must end in "truncated", not in
  // an allocation of any size it names.
  for (uint64_t i = 0; i < pairs; ++i) {
    const uint64_t key = reader.Get<uint64_t>("range", index);
    range.result.emplace_back(key, reader.Get<uint64_t>("range", index));
  }
  return range;
}

}  // namespace

void ConsistencyChecker::SaveHistory(std::ostream& out) const {
  std::lock_guard lock(mutex_);
  out.write(kMagic.data(), kMagic.size());
  HistoryWriter writer(out);
  writer.Put(kVersion);
  writer.Put(uint64_t{ops_.size()});
  writer.Put(uint64_t{ranges_.size()});
  for (const Op& op : ops_) {
    writer.Put(op.key);
    writer.Put(op.arg);
    writer.Put(op.invoke);
    writer.Put(op.response);
    writer.Put(op.client);
    writer.Put(static_cast<uint8_t>(op.kind));
    writer.Put(static_cast<uint8_t>(op.flag ? 1 : 0));
  }
  for (const RangeOp& range : ranges_) {
    writer.Put(range.to);
    writer.Put(uint64_t{range.limit});
    writer.Put(uint64_t{range.result.size()});
    for (const auto& [key, value] : range.result) {
      writer.Put(key);
      writer.Put(value);
    }
  }
}

void ConsistencyChecker::LoadHistory(std::istream& in, uint64_t widen_ns) {
  std::array<char, kMagic.size()> magic{};
  if (!in.read(magic.data(), magic.size()) || magic != kMagic) {
    Fail("not a dmbench consistency history (bad magic)");
  }
  HistoryReader reader(in);
  const uint32_t version = reader.Get<uint32_t>("the header");
  if (version != kVersion) {
    Fail("version " + std::to_string(version) + ", but this build reads version " +
         std::to_string(kVersion));
  }
  const uint64_t op_count = reader.Get<uint64_t>("the header");
  const uint64_t range_count = reader.Get<uint64_t>("the header");
  // Read everything before taking the lock, so a bad stream leaves the
  // checker unchanged and recording is not blocked on I/O.
  std::vector<Op> ops;
  uint64_t range_ops = 0;
  for (uint64_t i = 0; i < op_count; ++i) {
    ops.push_back(ReadOp(reader, i, range_ops, widen_ns));
    if (ops.back().kind == OpKind::kRange) ++range_ops;
  }
  if (range_ops != range_count) {
    Fail(std::to_string(range_ops) + " range operations but " + std::to_string(range_count) +
         " ranges");
  }
  std::vector<RangeOp> ranges;
  for (uint64_t i = 0; i < range_count; ++i) ranges.push_back(ReadRange(reader, i));
  if (in.peek() != std::istream::traits_type::eof()) {
    Fail("bytes follow its last range (a history is one whole SaveHistory stream)");
  }

  std::lock_guard lock(mutex_);
  const uint64_t overlap = widen_ns > UINT64_MAX / 2 ? UINT64_MAX : 2 * widen_ns;
  own_overlap_ = std::max(own_overlap_, overlap);
  const uint64_t range_base = ranges_.size();
  for (Op& op : ops) {
    if (op.kind == OpKind::kRange) op.arg += range_base;
  }
  ops_.insert(ops_.end(), ops.begin(), ops.end());
  ranges_.insert(ranges_.end(), std::make_move_iterator(ranges.begin()),
                 std::make_move_iterator(ranges.end()));
}

}  // namespace dmbench::indexes
