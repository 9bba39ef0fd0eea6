// Remote memory allocation for one client thread.
//
// Fetching a chunk takes a round trip, so a thread takes a whole chunk at a
// time from a memory server and carves nodes out of it locally (paper
// §4.2.4). Threads take chunks from the memory servers in turn, starting at
// different servers, so nodes spread evenly over the cluster. Memory is never
// freed: neither index frees nodes.
#pragma once

#include <cstdint>

#include "harness/rdma/global_address.h"

namespace dmbench::rdma {

class Client;

class ChunkAllocator {
 public:
  // `first_server` spreads threads over memory servers.
  ChunkAllocator(uint32_t memory_servers, uint64_t host_memory_bytes, uint64_t chunk_bytes,
                 uint32_t first_server);

  // `bytes` rounded up to whole cachelines; throws MemoryExhaustedError when
  // the next memory server in turn has no chunk left.
  GlobalAddress Allocate(Client& client, uint64_t bytes);

  uint64_t chunks_taken() const { return chunks_taken_; }

 private:
  static constexpr uint64_t kAlignment = 64;

  uint32_t memory_servers_;
  uint64_t host_memory_bytes_;
  uint64_t chunk_bytes_;
  uint32_t next_server_;
  GlobalAddress cursor_;
  uint64_t remaining_ = 0;
  uint64_t chunks_taken_ = 0;
};

}  // namespace dmbench::rdma
