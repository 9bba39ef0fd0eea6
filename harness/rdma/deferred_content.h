// Bytes that belong in remote memory but need not be written yet: blocks a
// memory server may build when a verb first touches them.
//
// A bulkloaded index is a pure function of its config until a write touches
// it, and at the paper's scale (1 billion keys, 17 GB of nodes) writing all
// of it up front would need more memory than a laptop has, although a run
// touches a small part. Client::WriteDeferred hands such blocks to the
// backend: the simulated fabric builds a block when a verb touches a byte
// of it (its first READs build it into the reader's buffer only, a later
// READ, a write or an atomic into memory: sim/deferred_blocks.h); a real
// backend writes every block at once, as if each were a Write. Either way
// every verb sees the block's bytes as if they had been written before it.
#pragma once

#include <cstdint>
#include <span>

#include "harness/rdma/global_address.h"

namespace dmbench::rdma {

// Implementations must be safe to call from the backend at any time after
// WriteDeferred (the simulated fabric calls Fill while a verb executes), and
// Fill must give the same bytes every time it is called for a block.
class DeferredContent {
 public:
  virtual ~DeferredContent() = default;

  // Blocks [0, blocks()), each block_bytes() long at address(i); blocks do
  // not overlap and lie in host memory.
  virtual uint64_t blocks() const = 0;
  virtual uint32_t block_bytes() const = 0;
  virtual GlobalAddress address(uint64_t block) const = 0;
  // Writes block `block`'s bytes to `out` (block_bytes() long).
  virtual void Fill(uint64_t block, std::span<uint8_t> out) const = 0;
  // Hints that Fill(block) may come soon: brings what it looks up towards
  // the CPU's caches. Changes nothing Fill writes.
  virtual void Prefetch(uint64_t /*block*/) const {}
};

}  // namespace dmbench::rdma
