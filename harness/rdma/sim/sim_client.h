// A client of the simulated cluster: a coroutine whose verbs suspend it until
// the simulated fabric completes them.
#pragma once

#include <boost/context/stack_context.hpp>
#include <boost/coroutine2/coroutine.hpp>

#include <exception>
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
  void ExecuteBatches(std::span<const std::span<WorkRequest>> batches) override;

 private:
  friend class SimCluster;
  using Coroutine = boost::coroutines2::coroutine<void>;

  // Per work request of a batch in flight.
  struct Timing {
    SimTime arrival = 0;    // at the responder NIC, ready for execution
    SimTime dma_start = 0;  // the window in which its cachelines move
    SimTime dma_end = 0;
  };
  // One batch in flight on one QP.
  struct InFlightBatch {
    SimClient* client = nullptr;
    uint16_t index = 0;  // in the client's in_flight_
    std::span<WorkRequest> requests;
    std::vector<Timing> timing;
    SimTime done = 0;                         // when its last response reaches the requester
    InFlightBatch* next_in_bucket = nullptr;  // FIFO of an atomic bucket
    uint32_t waiting_atomic = 0;
  };

  // Prepares a run of `body`; the coroutine is made when Launch() runs it,
  // so a coroutine always exists only once it has started.
  void Start(const std::function<void(Client&)>& body, size_t stack_bytes);
  void Launch();
  // Switches from the scheduler into the coroutine until it suspends or
  // ends; rethrows, on the scheduler's stack, what the client's body threw.
  void Resume();
  // Switches from the coroutine back to the scheduler.
  void Suspend();
  // Ends the coroutine, unwinding its stack if it is suspended.
  void Destroy();
  SimTime ThreadTime() const;

  SimCluster& cluster_;
  SimThread& thread_;
  std::unique_ptr<Coroutine::push_type> coroutine_;
  Coroutine::pull_type* yield_ = nullptr;
  boost::context::stack_context stack_;  // the coroutine's stack, for the sanitizer
  const void* scheduler_stack_bottom_ = nullptr;
  size_t scheduler_stack_size_ = 0;
  std::exception_ptr failure_;
  const std::function<void(Client&)>* body_ = nullptr;
  size_t stack_bytes_ = 0;
  bool finished_ = true;
  bool parked_ = false;
  bool wake_pending_ = false;
  bool permit_ = false;

  std::vector<InFlightBatch> in_flight_;  // sized at each post; stable while in flight
  uint32_t batches_scheduling_ = 0;       // batches whose completion time is not known yet
  SimTime all_done_ = 0;
};

}  // namespace dmbench::rdma::sim
