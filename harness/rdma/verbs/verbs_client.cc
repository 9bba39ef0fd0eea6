#include "harness/rdma/verbs/verbs_client.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "harness/rdma/errors.h"
#include "harness/rdma/verbs/completion_status.h"
#include "harness/rdma/verbs/rdma_device.h"
#include "harness/rdma/verbs/verbs_cluster.h"
#include "harness/rdma/verbs/verbs_thread.h"
#include "harness/util/monotonic_clock.h"

namespace dmbench::rdma::verbs {

namespace {

constexpr size_t kInitialStagingBytes = 64 << 10;

// Staged buffers stay 8-byte aligned, as atomics' results must be.
size_t Rounded(size_t bytes) { return (bytes + 7) & ~size_t{7}; }

bool PostedInline(const WorkRequest& request, const QueuePair& queue_pair) {
  return request.verb == Verb::kWrite && request.length <= queue_pair.inline_bytes;
}

// Bytes of the staging buffer a request takes.
size_t StagedBytes(const WorkRequest& request, const QueuePair& queue_pair) {
  if (IsAtomic(request.verb)) return 8;
  return PostedInline(request, queue_pair) ? 0 : Rounded(request.length);
}

}  // namespace

VerbsClient::VerbsClient(VerbsThread& thread, ClientLocation location, const ClusterShape& shape)
    : Client(location, shape),
      thread_(thread),
      deadline_(thread.cluster().completion_timeout_ns()) {
  if (thread.techniques() != nullptr) AttachThreadTechniques(thread.techniques());
}

VerbsClient::~VerbsClient() {
  coroutine_.Destroy();
  if (staging_region_ != nullptr) ibv_dereg_mr(staging_region_);
  std::free(staging_);
}

ChunkAllocator& VerbsClient::allocator() { return thread_.allocator(); }

void VerbsClient::ChargeCpu(uint64_t) {}  // the CPU time is spent for real

void VerbsClient::Yield() { coroutine_.Suspend(); }

void VerbsClient::Park() {
  while (!permit_.exchange(false, std::memory_order_acq_rel)) {
    StopIfAborting();
    coroutine_.Suspend();
  }
}

void VerbsClient::WakeUp(Client& other, uint32_t) {
  static_cast<VerbsClient&>(other).permit_.store(true, std::memory_order_release);
}

uint64_t VerbsClient::NowNanoseconds() const { return MonotonicNanoseconds(); }

bool VerbsClient::Runnable() const {
  // A client waits for its batch to complete, or parks; anything else runs.
  // An aborting run wakes everyone, so that each leaves with the reason.
  return batches_pending_ == 0 || waiting_for_slots_ || deadline_passed_ ||
         thread_.cluster().aborting();
}

void VerbsClient::CheckDeadline(uint64_t now_ns) {
  if (batches_pending_ > 0 && deadline_.Lost(now_ns)) deadline_passed_ = true;
}

void VerbsClient::StopIfAborting() {
  if (!thread_.cluster().aborting()) return;
  failure_is_consequence_ = true;
  thread_.cluster().ThrowIfAborting();
}

[[noreturn]] void VerbsClient::Fail(const std::string& message, bool consequence) {
  failure_is_consequence_ = consequence;
  throw VerbError(message);
}

void VerbsClient::ReserveStaging(size_t bytes) {
  // Even a batch of inline WRITEs alone needs the region: every scatter
  // entry is built with its key before the inline ones drop it.
  if (bytes <= staging_bytes_ && staging_region_ != nullptr) return;
  const size_t size = std::max({bytes, 2 * staging_bytes_, kInitialStagingBytes});
  const size_t rounded = (size + 4095) & ~size_t{4095};
  if (staging_region_ != nullptr) ibv_dereg_mr(staging_region_);
  std::free(staging_);
  staging_region_ = nullptr;
  staging_ = static_cast<uint8_t*>(std::aligned_alloc(4096, rounded));
  if (staging_ == nullptr) {
    staging_bytes_ = 0;
    throw MemoryExhaustedError("cannot allocate a " + std::to_string(rounded) +
                               "-byte staging buffer for a client");
  }
  staging_bytes_ = rounded;
  staging_region_ = thread_.cluster().device().Register(staging_, rounded, "a staging buffer");
}

void VerbsClient::Post(std::span<WorkRequest> batch, uint32_t batch_index, size_t& staging_offset) {
  const uint16_t server = batch.front().remote.server;
  QueuePair& queue_pair = thread_.queue_pair(server);
  const auto count = static_cast<uint32_t>(batch.size());
  if (count > queue_pair.capacity) {
    Fail("a batch of " + std::to_string(count) + " work requests exceeds the send queue (" +
             std::to_string(queue_pair.capacity) + ")",
         false);
  }
  // Slots free up only when completions are polled; meanwhile others run.
  waiting_for_slots_ = true;
  while (queue_pair.in_flight + count > queue_pair.capacity) {
    thread_.PollCompletions();
    if (queue_pair.in_flight + count <= queue_pair.capacity) break;
    coroutine_.Suspend();
    StopIfAborting();
  }
  waiting_for_slots_ = false;

  requests_.assign(count, ibv_send_wr{});
  scatter_.assign(count, ibv_sge{});
  for (uint32_t i = 0; i < count; ++i) {
    const WorkRequest& request = batch[i];
    const bool last = i + 1 == count;
    tags_.push_back({this, batch_index, request.verb, last});
    ibv_send_wr& posted = requests_[i];
    ibv_sge& buffer = scatter_[i];
    posted.wr_id = reinterpret_cast<uint64_t>(&tags_.back());
    posted.next = last ? nullptr : &requests_[i + 1];
    posted.sg_list = &buffer;
    posted.num_sge = 1;
    posted.send_flags = last ? IBV_SEND_SIGNALED : 0;
    const RemoteRegion& region = request.remote.space == MemorySpace::kHost
                                     ? queue_pair.server.host
                                     : queue_pair.server.on_chip;
    const uint64_t remote = region.base + request.remote.offset;
    buffer.addr = reinterpret_cast<uint64_t>(staging_ + staging_offset);
    buffer.length = IsAtomic(request.verb) ? 8 : request.length;
    buffer.lkey = staging_region_->lkey;
    switch (request.verb) {
      case Verb::kRead:
        posted.opcode = IBV_WR_RDMA_READ;
        posted.wr.rdma = {remote, region.rkey};
        break;
      case Verb::kWrite:
        posted.opcode = IBV_WR_RDMA_WRITE;
        posted.wr.rdma = {remote, region.rkey};
        if (PostedInline(request, queue_pair)) {
          // Copied into the work request at post time: no staging, no lkey.
          posted.send_flags |= IBV_SEND_INLINE;
          buffer.addr = reinterpret_cast<uint64_t>(request.local);
          buffer.lkey = 0;
        } else {
          std::memcpy(staging_ + staging_offset, request.local, request.length);
        }
        break;
      case Verb::kCompareAndSwap:
        posted.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
        posted.wr.atomic = {remote, request.compare_or_add, request.swap, region.rkey};
        break;
      case Verb::kFetchAndAdd:
        posted.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
        posted.wr.atomic = {remote, request.compare_or_add, 0, region.rkey};
        break;
      case Verb::kMaskedCompareAndSwap:
        Fail("masked compare-and-swap does not exist in upstream rdma-core", false);
    }
    staging_offset += StagedBytes(request, queue_pair);
  }
  ibv_send_wr* bad = nullptr;
  const int status = ibv_post_send(queue_pair.get(), requests_.data(), &bad);
  if (status != 0) {
    Fail(ErrnoText(
             "ibv_post_send of a batch to memory server " + thread_.cluster().ServerLabel(server),
             status),
         false);
  }
  queue_pair.in_flight += count;
  posted_[batch_index] = {server, count};
  ++batches_pending_;
}

void VerbsClient::ExecuteBatches(std::span<const std::span<WorkRequest>> batches) {
  VerbsCluster& cluster = thread_.cluster();
  StopIfAborting();
  size_t staging = 0;
  size_t requests = 0;
  for (std::span<WorkRequest> batch : batches) {
    const QueuePair& queue_pair = thread_.queue_pair(batch.front().remote.server);
    for (const WorkRequest& request : batch) staging += StagedBytes(request, queue_pair);
    requests += batch.size();
  }
  ReserveStaging(staging);
  posted_.assign(batches.size(), PostedBatch{});
  tags_.clear();
  tags_.reserve(requests);  // the tags' addresses are the requests' ids
  completion_error_.clear();
  completion_error_is_flush_ = false;
  deadline_passed_ = false;
  deadline_.Start(NowNanoseconds());
  size_t offset = 0;
  for (uint32_t i = 0; i < batches.size(); ++i) Post(batches[i], i, offset);
  while (batches_pending_ > 0) {
    coroutine_.Suspend();
    if (deadline_passed_) {
      const PostedBatch& first = posted_[0];
      Fail("no completion within " + std::to_string(cluster.completion_timeout_ns() / 1000000) +
               " ms for a batch to memory server " + cluster.ServerLabel(first.server) + " (" +
               std::to_string(batches_pending_) + " of " + std::to_string(posted_.size()) +
               " batches pending, queue pair state " +
               QueuePairStateName(thread_.queue_pair(first.server).get()) +
               "): it or the network stopped answering (backend.completion_timeout_ms)",
           false);
    }
    if (batches_pending_ > 0) StopIfAborting();
  }
  if (!completion_error_.empty()) Fail(completion_error_, completion_error_is_flush_);
  offset = 0;
  for (std::span<WorkRequest> batch : batches) {
    const QueuePair& queue_pair = thread_.queue_pair(batch.front().remote.server);
    for (WorkRequest& request : batch) {
      if (request.verb == Verb::kRead) {
        std::memcpy(request.local, staging_ + offset, request.length);
      } else if (IsAtomic(request.verb)) {
        std::memcpy(&request.old_value, staging_ + offset, 8);
      }
      offset += StagedBytes(request, queue_pair);
    }
  }
}

void VerbsClient::Complete(const ibv_wc& completion, const RequestTag& tag) {
  const PostedBatch& batch = posted_[tag.batch];
  // The first failure is the cause; flushes of the requests after it are
  // its consequence and name it only when nothing better is known.
  if (completion.status != IBV_WC_SUCCESS &&
      (completion_error_.empty() ||
       (completion_error_is_flush_ && completion.status != IBV_WC_WR_FLUSH_ERR))) {
    completion_error_ =
        DescribeFailedCompletion(tag.verb, thread_.cluster().ServerLabel(batch.server), completion);
    completion_error_is_flush_ = completion.status == IBV_WC_WR_FLUSH_ERR;
  }
  if (tag.last) {
    thread_.queue_pair(batch.server).in_flight -= batch.requests;
    --batches_pending_;
  }
}

}  // namespace dmbench::rdma::verbs
