// A client of the simulated cluster: a coroutine whose verbs suspend it until
// the simulated fabric completes them.
#pragma once

#include <boost/coroutine2/coroutine.hpp>

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "harness/rdma/chunk_allocator.h"
#include "harness/rdma/client.h"
#include "harness/rdma/sim/sim_time.h"

namespace dmbench::rdma::sim {

class SimCluster;

// State shared by the coroutines of one client thread.
struct SimThread {
  SimThread(uint32_t index, ChunkAllocator allocator) : index(index), allocator(allocator) {}
  uint32_t index;           // dense over the cluster
  SimTime cpu_free_at = 0;  // the thread's CPU is a serial resource
  ChunkAllocator allocator;
};

class SimClient final : public Client {
 public:
  SimClient(SimCluster& cluster, SimThread& thread, ClientLocation location,
            const ClusterShape& shape);

  void ChargeCpu(uint64_t nanoseconds) override;
  void Yield() override;
  void Park() override;
  void Unpark(Client& other) override;
  uint64_t NowNanoseconds() const override;
  ChunkAllocator& allocator() override { return thread_.allocator; }

 protected:
  void ExecuteBatch(std::span<WorkRequest> batch) override;

 private:
  friend class SimCluster;
  using Coroutine = boost::coroutines2::coroutine<void>;

  // Per work request of the batch in flight.
  struct Timing {
    SimTime arrival = 0;    // at the responder NIC, ready for execution
    SimTime dma_start = 0;  // the window in which its cachelines move
    SimTime dma_end = 0;
  };

  void Start(const std::function<void(Client&)>& body, size_t stack_bytes);
  void Suspend() { (*yield_)(); }
  void Resume() { (*coroutine_)(); }
  SimTime ThreadTime() const;

  SimCluster& cluster_;
  SimThread& thread_;
  std::unique_ptr<Coroutine::push_type> coroutine_;
  Coroutine::pull_type* yield_ = nullptr;
  bool finished_ = true;
  bool parked_ = false;
  bool wake_pending_ = false;
  bool permit_ = false;

  std::span<WorkRequest> batch_;
  std::vector<Timing> timing_;
  SimTime batch_done_ = 0;
  SimClient* next_in_bucket_ = nullptr;  // FIFO of an atomic bucket
  uint32_t waiting_atomic_ = 0;
};

}  // namespace dmbench::rdma::sim
