// A client of a real cluster: one coroutine of a compute-server thread. Its
// verbs become work requests on the thread's queue pairs; the coroutine
// suspends until the batch's last (signaled) request completes, and the
// thread's scheduler runs its other coroutines meanwhile.
//
// Index code hands verbs arbitrary local buffers, which the NIC cannot reach
// unregistered, so each client stages them in a registered buffer of its
// own: WRITE payloads are copied in (or posted inline when small), READ and
// atomic results copied out after completion. A copy costs far less than the
// round trip it rides on.
#pragma once

#include <infiniband/verbs.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/rdma/client.h"
#include "harness/rdma/client_coroutine.h"
#include "harness/rdma/verbs/completion_deadline.h"

namespace dmbench::rdma::verbs {

class VerbsThread;

class VerbsClient final : public Client {
 public:
  VerbsClient(VerbsThread& thread, ClientLocation location, const ClusterShape& shape);
  ~VerbsClient() override;

  void ChargeCpu(uint64_t nanoseconds) override;
  void ChargeCpu(CpuWork, uint64_t) override {}  // the CPU time is spent for real
  void Yield() override;
  void Park() override;
  uint64_t NowNanoseconds() const override;
  ChunkAllocator& allocator() override;

 protected:
  void WakeUp(Client& other, uint32_t spinners) override;
  void ExecuteBatches(std::span<const std::span<WorkRequest>> batches) override;

 private:
  friend class VerbsThread;
  // One batch posted on one queue pair.
  struct PostedBatch {
    uint16_t server = 0;
    uint32_t requests = 0;
  };
  // A work request's wr_id: enough to name it in an error and to find its
  // batch when the signaled one completes.
  struct RequestTag {
    VerbsClient* client = nullptr;
    uint32_t batch = 0;
    Verb verb = Verb::kRead;
    bool last = false;
  };

  // Called by the scheduler for each completion of this client's requests.
  void Complete(const ibv_wc& completion, const RequestTag& tag);
  bool Runnable() const;
  // Fails the client when its batch has waited longer than allowed.
  void CheckDeadline(uint64_t now_ns);
  void ReserveStaging(size_t bytes);
  void Post(std::span<WorkRequest> batch, uint32_t batch_index, size_t& staging_offset);
  [[noreturn]] void Fail(const std::string& message, bool consequence);
  // Leaves with the abort's reason once another failure aborts the run.
  void StopIfAborting();

  VerbsThread& thread_;
  ClientCoroutine coroutine_;
  std::vector<PostedBatch> posted_;
  std::vector<RequestTag> tags_;  // stable while requests are in flight
  std::vector<ibv_send_wr> requests_;
  std::vector<ibv_sge> scatter_;
  uint8_t* staging_ = nullptr;
  size_t staging_bytes_ = 0;
  ibv_mr* staging_region_ = nullptr;
  uint32_t batches_pending_ = 0;
  CompletionDeadline deadline_;
  bool waiting_for_slots_ = false;
  bool deadline_passed_ = false;
  std::string completion_error_;  // the first failed completion of the current call
  bool completion_error_is_flush_ = false;
  bool failure_is_consequence_ = false;  // of another failure, not the cause
  std::atomic<bool> permit_{false};
};

}  // namespace dmbench::rdma::verbs
