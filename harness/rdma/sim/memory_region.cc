#include "harness/rdma/sim/memory_region.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "harness/rdma/errors.h"

namespace dmbench::rdma::sim {

namespace {

// Time of the k-th of n events spread evenly inside [start, end].
SimTime Spread(SimTime start, SimTime end, uint64_t k, uint64_t n) {
  return start + (end - start) * static_cast<SimTime>(k + 1) / static_cast<SimTime>(n + 1);
}

}  // namespace

MemoryRegion::MemoryRegion(uint64_t bytes, uint64_t cacheline_bytes)
    : bytes_(bytes), deferred_(bytes), cacheline_bytes_(cacheline_bytes) {}

MemoryRegion::~MemoryRegion() = default;

void MemoryRegion::Peek(uint64_t offset, void* out, uint64_t length) {
  CheckRaw(offset, length);
  deferred_.MaterializeAll(bytes_);
  bytes_.Read(offset, out, length);
}

void MemoryRegion::Poke(uint64_t offset, const void* in, uint64_t length) {
  CheckRaw(offset, length);
  deferred_.MaterializeAll(bytes_);
  bytes_.Write(offset, in, length);
}

void MemoryRegion::CheckRaw(uint64_t offset, uint64_t length) const {
  if (offset > bytes_.size() || length > bytes_.size() - offset) {
    throw std::out_of_range("raw access to [" + std::to_string(offset) + ", +" +
                            std::to_string(length) + ") outside a region of " +
                            std::to_string(bytes_.size()) + " bytes");
  }
}

void MemoryRegion::AddDeferred(std::shared_ptr<const DeferredContent> content,
                               std::span<const uint64_t> blocks) {
  for (const uint64_t block : blocks) {
    if (content->address(block).offset + content->block_bytes() > bytes_.size()) {
      throw VerbError("a deferred block at " + content->address(block).ToString() + " of " +
                      std::to_string(content->block_bytes()) +
                      " bytes ends past the memory server's " + std::to_string(bytes_.size()) +
                      " bytes");
    }
  }
  deferred_.MaterializeAll(bytes_);
  deferred_.Add(std::move(content), blocks);
}

void MemoryRegion::NoteReadWindow(SimTime window) {
  longest_read_window_ = std::max(longest_read_window_, window);
}

void MemoryRegion::Log(uint64_t offset, uint32_t length, SimTime start, SimTime end) {
  // What the write overwrites must exist first.
  deferred_.Materialize(bytes_, offset, length);
  // Entries that ended before any READ still pending could have sampled
  // cannot matter any more.
  while (!log_.empty() && log_.front().end < start - longest_read_window_) {
    if (spare_old_bytes_.size() < kSpareOldBytes) {
      spare_old_bytes_.push_back(std::move(log_.front().old_bytes));
    }
    log_.pop_front();
  }
  LoggedWrite& entry = log_.emplace_back();
  if (!spare_old_bytes_.empty()) {
    entry.old_bytes = std::move(spare_old_bytes_.back());
    spare_old_bytes_.pop_back();
  }
  entry.offset = offset;
  entry.length = length;
  entry.start = start;
  entry.end = end;
  entry.old_bytes.resize(length);
  bytes_.Read(offset, entry.old_bytes.data(), length);
}

void MemoryRegion::Write(uint64_t offset, const void* source, uint32_t length, SimTime start,
                         SimTime end) {
  Log(offset, length, start, end);
  bytes_.Write(offset, source, length);
}

void MemoryRegion::WriteWord(uint64_t offset, uint64_t value, SimTime now) {
  Log(offset, sizeof(value), now, now);
  bytes_.Write(offset, &value, sizeof(value));
}

uint64_t MemoryRegion::ReadWord(uint64_t offset) {
  deferred_.Materialize(bytes_, offset, sizeof(uint64_t));
  uint64_t value;
  bytes_.Read(offset, &value, sizeof(value));
  return value;
}

SimTime MemoryRegion::LineLandedAt(const LoggedWrite& write, uint64_t line) const {
  const uint64_t first = write.offset / cacheline_bytes_;
  const uint64_t last = (write.offset + write.length - 1) / cacheline_bytes_;
  return Spread(write.start, write.end, line - first, last - first + 1);
}

void MemoryRegion::Read(uint64_t offset, void* destination, uint32_t length, SimTime start,
                        SimTime end, DmaOrder order, Random& random) {
  auto* out = static_cast<uint8_t*>(destination);
  deferred_.Read(bytes_, offset, out, length);

  const uint64_t read_end = offset + length;
  bool overlapped = false;
  for (const LoggedWrite& write : log_) {
    if (write.end > start && write.offset < read_end && offset < write.offset + write.length) {
      overlapped = true;
      break;
    }
  }
  if (!overlapped) return;

  const uint64_t first = offset / cacheline_bytes_;
  const uint64_t lines = (read_end - 1) / cacheline_bytes_ - first + 1;
  line_ranks_.resize(lines);
  for (uint64_t i = 0; i < lines; ++i) {
    line_ranks_[i] = static_cast<uint32_t>(order == DmaOrder::kDescending ? lines - 1 - i : i);
  }
  if (order == DmaOrder::kRandom) {
    for (uint64_t i = lines - 1; i > 0; --i) {
      std::swap(line_ranks_[i], line_ranks_[random.Uniform(i + 1)]);
    }
  }

  bool torn = false;
  // Newest first, so that on each line the oldest write that landed after the
  // sample wins: its old bytes are the line as it was when sampled.
  for (auto write = log_.rbegin(); write != log_.rend(); ++write) {
    const uint64_t write_end = write->offset + write->length;
    if (write->end <= start || write->offset >= read_end || offset >= write_end) continue;
    bool undone = false;
    bool kept = false;
    const uint64_t overlap_begin = std::max(offset, write->offset);
    const uint64_t overlap_end = std::min(read_end, write_end);
    for (uint64_t line = overlap_begin / cacheline_bytes_; line * cacheline_bytes_ < overlap_end;
         ++line) {
      const SimTime sampled = Spread(start, end, line_ranks_[line - first], lines);
      if (LineLandedAt(*write, line) <= sampled) {
        kept = true;
        continue;
      }
      undone = true;
      const uint64_t begin = std::max(overlap_begin, line * cacheline_bytes_);
      const uint64_t stop = std::min(overlap_end, (line + 1) * cacheline_bytes_);
      std::memcpy(out + (begin - offset), write->old_bytes.data() + (begin - write->offset),
                  stop - begin);
    }
    torn = torn || (undone && kept);
  }
  if (torn) ++torn_reads_;
}

}  // namespace dmbench::rdma::sim
