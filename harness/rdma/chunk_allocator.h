// Remote memory allocation for one client thread.
//
// Fetching a chunk takes a round trip, so a thread takes a whole chunk at a
// time from a memory server and carves nodes out of it locally (paper
// §4.2.4). Threads take chunks from the memory servers in turn, starting at
// different servers, so nodes spread evenly over the cluster. Memory is never
// freed: neither index frees nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "harness/rdma/global_address.h"

namespace dmbench::rdma {

class Client;

class ChunkAllocator {
 public:
  // `first_server` spreads threads over memory servers.
  ChunkAllocator(uint32_t memory_servers, uint64_t host_memory_bytes, uint64_t chunk_bytes,
                 uint32_t first_server);

  // `bytes` rounded up to whole cachelines, from the current chunk; when it
  // is used up, from a new chunk of the next memory server in turn. Throws
  // MemoryExhaustedError when that server has no chunk left.
  GlobalAddress Allocate(Client& client, uint64_t bytes);
  // The same, but on a given memory server (for placement that spreads
  // nodes one by one, as a bulkload does).
  GlobalAddress AllocateOn(Client& client, uint64_t bytes, uint32_t server);

  uint64_t chunks_taken() const { return chunks_taken_; }

 private:
  static constexpr uint64_t kAlignment = 64;
  struct Chunk {
    GlobalAddress cursor;
    uint64_t remaining = 0;
  };
  void TakeChunk(Client& client, uint32_t server);

  uint32_t memory_servers_;
  uint64_t host_memory_bytes_;
  uint64_t chunk_bytes_;
  uint32_t current_server_;
  std::vector<Chunk> chunks_;  // the chunk being carved on each server
  uint64_t chunks_taken_ = 0;
};

}  // namespace dmbench::rdma
