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
      current_server_(first_server % memory_servers),
      chunks_(memory_servers) {}

GlobalAddress ChunkAllocator::Allocate(Client& client, uint64_t bytes) {
  const uint64_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  // Move on once this server's chunk is used up (a thread starts on its own
  // server with no chunk yet).
  const Chunk& current = chunks_[current_server_];
  if (rounded <= chunk_bytes_ && !current.cursor.IsNull() && current.remaining < rounded) {
    current_server_ = (current_server_ + 1) % memory_servers_;
  }
  return AllocateOn(client, bytes, current_server_);
}

GlobalAddress ChunkAllocator::AllocateOn(Client& client, uint64_t bytes, uint32_t server) {
  bytes = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (bytes > chunk_bytes_) {
    throw MemoryExhaustedError("cannot allocate " + std::to_string(bytes) +
                               " bytes: larger than a chunk (" + std::to_string(chunk_bytes_) +
                               " bytes); raise topology.chunk_mib");
  }
  server %= memory_servers_;
  // Another coroutine of this thread may refill while this one waits for its
  // fetch-and-add, so the check is a loop; a spare chunk is simply kept.
  while (chunks_[server].remaining < bytes) TakeChunk(client, server);
  Chunk& chunk = chunks_[server];
  const GlobalAddress result = chunk.cursor;
  chunk.cursor = chunk.cursor + bytes;
  chunk.remaining -= bytes;
  return result;
}

void ChunkAllocator::TakeChunk(Client& client, uint32_t server) {
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
  chunks_[server] = {GlobalAddress::Host(static_cast<uint16_t>(server), start), chunk_bytes_};
  ++chunks_taken_;
}

}  // namespace dmbench::rdma
