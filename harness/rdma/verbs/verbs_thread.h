// One client thread of a compute server: its completion queue, its queue
// pairs (one per memory server), and the scheduler of its client coroutines,
// which polls the completion queue and resumes each coroutine whose batch
// has completed.
#pragma once

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/rdma/chunk_allocator.h"
#include "harness/rdma/cluster.h"
#include "harness/rdma/thread_techniques.h"
#include "harness/rdma/verbs/memory_server_info.h"
#include "harness/rdma/verbs/thread_domain.h"

namespace dmbench::rdma::verbs {

class VerbsCluster;
class VerbsClient;

struct QueuePair {
  rdma_cm_id* id = nullptr;  // owns the queue pair
  uint32_t capacity = 0;     // send-queue slots
  uint32_t in_flight = 0;    // slots taken by posted, uncompleted requests
  uint32_t inline_bytes = 0;
  MemoryServerInfo server;
  ibv_qp* get() const { return id->qp; }
};

class VerbsThread {
 public:
  // Takes ownership of `cq`.
  VerbsThread(VerbsCluster& cluster, uint32_t index, ibv_cq* cq);
  ~VerbsThread();
  VerbsThread(const VerbsThread&) = delete;
  VerbsThread& operator=(const VerbsThread&) = delete;

  // The allocator needs the memory servers' sizes, known once connected.
  void SetAllocator(ChunkAllocator allocator) { allocator_.emplace(allocator); }
  void AddClient(std::unique_ptr<VerbsClient> client);
  void AddQueuePair(QueuePair queue_pair) { queue_pairs_.push_back(queue_pair); }
  // Per-thread doorbells: the domain this thread's QPs are created on
  // (before any is); without one they take the device's protection domain.
  void SetDomain(std::unique_ptr<ThreadDomain> domain) { domain_ = std::move(domain); }
  const ThreadDomain* domain() const { return domain_.get(); }
  // The substrate's throttling and conflict avoidance for this thread's
  // coroutines; before its clients are added, which attach them.
  void EnableTechniques(const SubstrateOptions& options, uint32_t coroutines, uint64_t seed) {
    techniques_.emplace(options, coroutines, seed);
  }
  ThreadTechniques* techniques() { return techniques_ ? &*techniques_ : nullptr; }

  // Runs `body` on every client of this thread until all return. On a
  // failure, aborts the cluster's run and returns the failure (null when
  // none), with whether it is only a consequence of another one.
  std::exception_ptr Run(const Cluster::ClientBody& body, bool* consequence);

  VerbsCluster& cluster() { return cluster_; }
  QueuePair& queue_pair(uint16_t server) { return queue_pairs_[server]; }
  std::vector<QueuePair>& queue_pairs() { return queue_pairs_; }
  ChunkAllocator& allocator() { return *allocator_; }
  ibv_cq* cq() const { return cq_; }
  // Completes whatever the queue has: called by the scheduler, and by a
  // client waiting for send-queue slots.
  void PollCompletions();

 private:
  VerbsCluster& cluster_;
  uint32_t index_;
  std::optional<ChunkAllocator> allocator_;
  ibv_cq* cq_;
  std::unique_ptr<ThreadDomain> domain_;  // outlives the QPs (the destructor frees them first)
  std::vector<QueuePair> queue_pairs_;
  std::optional<ThreadTechniques> techniques_;
  std::vector<std::unique_ptr<VerbsClient>> clients_;
};

}  // namespace dmbench::rdma::verbs
