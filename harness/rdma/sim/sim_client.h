// A client of the simulated cluster: a coroutine whose verbs suspend it until
// the simulated fabric completes them.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "harness/rdma/chunk_allocator.h"
#include "harness/rdma/client.h"
#include "harness/rdma/client_coroutine.h"
#include "harness/rdma/sim/sim_time.h"
#include "harness/rdma/thread_techniques.h"

namespace dmbench::rdma::sim {

class SimCluster;

// State shared by the coroutines of one client thread.
struct SimThread {
  SimThread(uint32_t index, ChunkAllocator allocator) : index(index), allocator(allocator) {}
  uint32_t index;           // dense over the cluster
  SimTime cpu_free_at = 0;  // the thread's CPU is a serial resource
  ChunkAllocator allocator;
  std::optional<ThreadTechniques> techniques;  // when any is on
};

class SimClient final : public Client {
 public:
  SimClient(SimCluster& cluster, SimThread& thread, ClientLocation location,
            const ClusterShape& shape);

  void ChargeCpu(uint64_t nanoseconds) override;
  void ChargeCpu(CpuWork work, uint64_t count) override;
  void Yield() override;
  void SleepUntil(uint64_t nanoseconds) override;
  void Park() override;
  uint64_t NowNanoseconds() const override;
  std::optional<uint64_t> UnloadedReadNanoseconds(GlobalAddress source,
                                                  uint32_t length) const override;
  ChunkAllocator& allocator() override { return thread_.allocator; }
  // Hands the blocks to their memory regions, to be built on first touch;
  // takes no simulated time.
  void WriteDeferred(std::shared_ptr<const DeferredContent> content) override;

 protected:
  void WakeUp(Client& other, uint32_t spinners) override;
  void ExecuteBatches(std::span<const std::span<WorkRequest>> batches) override;
  void PostBatchWithoutWaiting(std::span<const WorkRequest> batch) override;

 private:
  friend class SimCluster;
  friend class NicModel;

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
    SimTime done = 0;             // when its last response reaches the requester
    uint32_t waiting_atomic = 0;  // while queued at an atomic bucket: which request
    bool atomic_parked = false;   // that atomic sits in a parking slot, not on its unit
    bool detached = false;        // posted without waiting: nobody resumes on it
    // Arrival events of its atomic still to come that are void: it was
    // displaced on its way to its unit, and rescheduled (NicModel::Displace).
    uint32_t stale_arrivals = 0;
  };
  // A batch posted without waiting owns copies of its requests and their
  // bytes, since its poster has moved on; it lives until its last response.
  struct DetachedBatch {
    InFlightBatch batch;
    std::vector<WorkRequest> requests;
    std::vector<uint8_t> payload;
  };
  // A READ of a batch in flight that is resolved when its client resumes
  // rather than by an event of its own (NicModel::Post says when).
  struct ReadAtResume {
    uint16_t group;    // the batch, in in_flight_
    uint32_t request;  // in the batch
  };
  // Event groups at or above this name a detached batch's slot.
  static constexpr uint16_t kDetachedGroup = 0x8000;
  InFlightBatch& BatchOf(uint16_t group) {
    return group >= kDetachedGroup ? detached_[group - kDetachedGroup].batch : in_flight_[group];
  }
  void ForgetDetached(uint16_t group);

  // Prepares a run of `body` on this client; SimCluster then drives it
  // through coroutine_, whose first Resume() makes the coroutine. `body`
  // must outlive the run.
  void Start(const std::function<void(Client&)>& body, size_t stack_bytes);
  SimTime ThreadTime() const;
  // Charges what a resumption costs the thread: a completion poll (after a
  // verb) and a coroutine switch.
  void ChargeResumption(double poll_ns);

  SimCluster& cluster_;
  SimThread& thread_;
  bool parked_ = false;
  bool wake_pending_ = false;
  bool permit_ = false;

  std::vector<InFlightBatch> in_flight_;  // sized at each post; stable while in flight
  std::deque<DetachedBatch> detached_;    // slots; a deque, so batches never move
  std::vector<uint16_t> free_detached_;   // slots of detached_ free for reuse
  uint32_t batches_scheduling_ = 0;       // batches whose completion time is not known yet
  SimTime all_done_ = 0;
  // Of the batches in flight, in posting order; resolved by the kResume
  // that their completion pushes.
  std::vector<ReadAtResume> reads_at_resume_;
  // Last, so that destroying a client unwinds its body while the state the
  // body may touch is still alive.
  ClientCoroutine coroutine_;
};

}  // namespace dmbench::rdma::sim
