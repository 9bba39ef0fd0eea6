#include "harness/rdma/chunk_allocator.h"

#include <string>

#include "harness/rdma/client.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/memory_layout.h"

namespace dmbench::rdma {

ChunkAllocator::ChunkAllocator(uint32_t memory_servers, uint64_t host_memory_bytes,
                               uint64_t chunk_bytes, uint32_t first_server)
    : memory_servers_(memory_servers),
      host_memory_bytes_(host_memory_bytes),
      chunk_bytes_(chunk_bytes),
      next_server_(first_server % memory_servers) {}

GlobalAddress ChunkAllocator::Allocate(Client& client, uint64_t bytes) {
  bytes = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (bytes > chunk_bytes_) {
    throw MemoryExhaustedError("cannot allocate " + std::to_string(bytes) +
                               " bytes: larger than a chunk (" + std::to_string(chunk_bytes_) +
                               " bytes); raise topology.chunk_mib");
  }
  // Another coroutine of this thread may refill while this one waits for its
  // fetch-and-add, so the check is a loop; a spare chunk is simply kept.
  while (remaining_ < bytes) {
    const uint32_t server = next_server_;
    next_server_ = (next_server_ + 1) % memory_servers_;
    const uint64_t taken = client.FetchAndAdd(
        GlobalAddress::Host(static_cast<uint16_t>(server), MemoryLayout::kChunkCounterOffset),
        chunk_bytes_);
    const uint64_t start = MemoryLayout::kFirstChunkOffset + taken;
    if (start + chunk_bytes_ > host_memory_bytes_) {
      const uint64_t capacity =
          host_memory_bytes_ > MemoryLayout::kFirstChunkOffset
              ? (host_memory_bytes_ - MemoryLayout::kFirstChunkOffset) / chunk_bytes_
              : 0;
      throw MemoryExhaustedError(
          "memory server " + std::to_string(server) + " is exhausted: its " +
          std::to_string(host_memory_bytes_ >> 20) + " MiB of host memory hold " +
          std::to_string(capacity) + " chunks of " + std::to_string(chunk_bytes_ >> 20) +
          " MiB and all are handed out; raise topology.host_memory_mib or shrink the key space");
    }
    cursor_ = GlobalAddress::Host(static_cast<uint16_t>(server), start);
    remaining_ = chunk_bytes_;
    ++chunks_taken_;
  }
  const GlobalAddress result = cursor_;
  cursor_ = cursor_ + bytes;
  remaining_ -= bytes;
  return result;
}

}  // namespace dmbench::rdma
