// The local backend: every client is an OS thread of this process, memory
// servers are byte arrays of it, and verbs execute directly, at once, on the
// calling thread. There is no timing model: the backend exists to run index
// code on real concurrency under ThreadSanitizer.
//
// Remote memory is only ever touched through atomics, so that the races RDMA
// permits (a READ overlapping a WRITE) are defined behaviour here: a READ or
// WRITE moves aligned 8-byte words (single bytes at unaligned edges), with
// release stores and acquire loads, and a WRITE that is seen makes every
// WRITE its client posted before it visible too (the in-order execution
// Sherman's combined batches rely on).
//
// READs and WRITEs are atomic per 64-byte cacheline against each other, as
// DMA is on the simulated fabric (cacheline_bytes) and on the NICs the
// cacheline-versioned layout is designed for: each line is copied under a
// striped lock, so a READ overlapping a WRITE sees every line either before
// or after it and tears only between lines. Without this, a READ could see
// an entry's new key beside its old value inside one line, which no real
// NIC shows and the per-cacheline versions rightly do not guard against.
// Atomics change one aligned word and need no line lock.
//
// A WRITE lands all of its lines at one instant for READs: it holds every
// line's lock while it copies (a bulk one, over more than 32 lines, shuts
// every other READ and WRITE out instead). A READ overlapping it so sees old
// lines, then new ones, with one boundary, as on the simulated fabric, whose
// DMA reads and writes both move through the lines in ascending order at a
// steady pace. Landing line by line, a WRITE whose thread was preempted (or queued
// behind a READ's line lock) mid-way could be passed by a READ, which then
// saw both ends of a node old and its middle new: a tear that Sherman's
// node-level front and rear versions do not catch and no steady DMA shows.
// It made the local Sherman tests return a range with a key twice, about
// once in 10^4 runs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "harness/rdma/chunk_allocator.h"
#include "harness/rdma/cluster.h"
#include "harness/rdma/topology.h"

namespace dmbench::rdma::local {

class LocalCluster;

class LocalClient final : public Client {
 public:
  LocalClient(LocalCluster& cluster, ClientLocation location, const ClusterShape& shape,
              ChunkAllocator allocator);

  void ChargeCpu(uint64_t nanoseconds) override;
  void ChargeCpu(CpuWork, uint64_t) override {}  // the CPU time is spent for real
  void Yield() override;
  void Park() override;
  uint64_t NowNanoseconds() const override;
  ChunkAllocator& allocator() override { return allocator_; }

 protected:
  void WakeUp(Client& other, uint32_t spinners) override;
  void ExecuteBatches(std::span<const std::span<WorkRequest>> batches) override;

 private:
  friend class LocalCluster;
  LocalCluster& cluster_;
  ChunkAllocator allocator_;
  std::mutex park_mutex_;
  std::condition_variable park_signal_;
  bool permit_ = false;
};

class LocalCluster final : public Cluster {
 public:
  // One OS thread per client: compute_servers x threads x coroutines.
  explicit LocalCluster(const Topology& topology, uint64_t on_chip_memory_bytes = 256 * 1024);
  ~LocalCluster() override;

  void RunClients(const ClientBody& body) override;
  const ClusterShape& shape() const override { return shape_; }

 private:
  friend class LocalClient;
  uint8_t* Memory(const GlobalAddress& address);
  void Execute(WorkRequest& request);
  // A WRITE, every line of it at one instant for READs (see above).
  void LandWrite(uint8_t* remote, const WorkRequest& request);
  bool aborting() const { return aborting_.load(std::memory_order_acquire); }
  static uint32_t Stripe(const uint8_t* line_start);
  std::mutex& LineLock(const uint8_t* line_start);

  Topology topology_;
  ClusterShape shape_;
  std::vector<uint8_t*> host_memory_;
  std::vector<std::unique_ptr<uint64_t[]>> on_chip_memory_;
  std::vector<std::unique_ptr<LocalClient>> clients_;
  std::atomic<bool> aborting_{false};
  // Striped by line address. A READ holds one at a time; a WRITE holds all of
  // its lines', taken in ascending stripe order.
  std::unique_ptr<std::mutex[]> line_locks_;
  // Held shared, before any line lock, by every READ and WRITE but a bulk
  // WRITE, which holds it alone instead of its lines' locks.
  std::shared_mutex bulk_gate_;
};

}  // namespace dmbench::rdma::local
