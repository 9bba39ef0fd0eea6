#include "harness/rdma/client.h"

#include <string>
#include <vector>

#include "harness/rdma/errors.h"
#include "harness/rdma/thread_techniques.h"

namespace dmbench::rdma {

void Client::Read(GlobalAddress source, void* destination, uint32_t length) {
  WorkRequest request{
      .verb = Verb::kRead, .remote = source, .local = destination, .length = length};
  Execute(std::span(&request, 1));
}

void Client::Write(GlobalAddress destination, const void* source, uint32_t length) {
  WorkRequest request{.verb = Verb::kWrite,
                      .remote = destination,
                      .local = const_cast<void*>(source),
                      .length = length};
  Execute(std::span(&request, 1));
}

uint64_t Client::CompareAndSwap(GlobalAddress word, uint64_t expected, uint64_t desired) {
  WorkRequest request{.verb = Verb::kCompareAndSwap,
                      .remote = word,
                      .length = 8,
                      .compare_or_add = expected,
                      .swap = desired};
  Execute(std::span(&request, 1));
  return request.old_value;
}

uint64_t Client::MaskedCompareAndSwap(GlobalAddress word, uint64_t expected, uint64_t desired,
                                      uint64_t mask) {
  WorkRequest request{.verb = Verb::kMaskedCompareAndSwap,
                      .remote = word,
                      .length = 8,
                      .compare_or_add = expected,
                      .swap = desired,
                      .mask = mask};
  Execute(std::span(&request, 1));
  return request.old_value;
}

uint64_t Client::FetchAndAdd(GlobalAddress word, uint64_t addend) {
  WorkRequest request{
      .verb = Verb::kFetchAndAdd, .remote = word, .length = 8, .compare_or_add = addend};
  Execute(std::span(&request, 1));
  return request.old_value;
}

void Client::CheckCanWake(const Client& other) const {
  if (other.location().compute_server != location_.compute_server) {
    throw VerbError("Unpark: client " + std::to_string(location_.index) +
                    " may only wake clients of its own compute server " +
                    std::to_string(location_.compute_server) + ", not client " +
                    std::to_string(other.location().index));
  }
}

void Client::Execute(std::span<WorkRequest> batch) { ExecuteConcurrently(std::span(&batch, 1)); }

void Client::ExecuteConcurrently(std::span<const std::span<WorkRequest>> batches) {
  if (batches.empty()) throw VerbError("ExecuteConcurrently needs at least one batch");
  for (std::span<WorkRequest> batch : batches) Validate(batch);
  if (techniques_ != nullptr && techniques_->throttle) {
    ExecuteThrottled(batches, *techniques_->throttle);
  } else {
    ExecuteBatches(batches);
  }
  Count(batches);
}

void Client::ExecuteThrottled(std::span<const std::span<WorkRequest>> batches,
                              WorkRequestThrottle& throttle) {
  // Groups of consecutive batches whose requests fit the credit, each
  // posted and waited for before the next.
  size_t first = 0;
  while (first < batches.size()) {
    auto requests = static_cast<uint32_t>(batches[first].size());
    throttle.Acquire(*this, requests);
    size_t end = first + 1;
    while (end < batches.size() &&
           throttle.TryAcquire(static_cast<uint32_t>(batches[end].size()))) {
      requests += static_cast<uint32_t>(batches[end].size());
      ++end;
    }
    ExecuteBatches(batches.subspan(first, end - first));
    throttle.Release(*this, requests);
    first = end;
  }
}

void Client::BeginTask() {
  if (techniques_ != nullptr && techniques_->conflicts) techniques_->conflicts->BeginTask(*this);
}

void Client::EndTask() {
  if (techniques_ != nullptr && techniques_->conflicts) techniques_->conflicts->EndTask(*this);
}

void Client::RetryAfterFailedCas() {
  if (techniques_ != nullptr && techniques_->conflicts) techniques_->conflicts->Retry(*this);
}

void Client::PostWithoutWaiting(std::span<const WorkRequest> batch) {
  Validate(batch);
  for (const WorkRequest& request : batch) {
    if (request.verb != Verb::kWrite) {
      throw VerbError(std::string("PostWithoutWaiting takes WRITEs only, not ") +
                      VerbName(request.verb) + ": nobody would see its result");
    }
  }
  PostBatchWithoutWaiting(batch);
  CountWithoutWaiting(batch);
}

void Client::WriteDeferred(std::shared_ptr<const DeferredContent> content) {
  std::vector<uint8_t> bytes(content->block_bytes());
  for (uint64_t block = 0; block < content->blocks(); ++block) {
    content->Fill(block, bytes);
    Write(content->address(block), bytes.data(), content->block_bytes());
  }
}

void Client::PostBatchWithoutWaiting(std::span<const WorkRequest> batch) {
  std::vector<WorkRequest> copy(batch.begin(), batch.end());
  const std::span<WorkRequest> waited(copy);
  ExecuteBatches(std::span(&waited, 1));
}

void Client::Validate(std::span<const WorkRequest> batch) const {
  if (batch.empty()) throw VerbError("an RDMA batch needs at least one work request");
  const uint16_t server = batch.front().remote.server;
  for (const WorkRequest& request : batch) Validate(request, server);
}

void Client::Validate(const WorkRequest& request, uint16_t server) const {
  const GlobalAddress& address = request.remote;
  auto fail = [&](const std::string& what) {
    throw VerbError(std::string(VerbName(request.verb)) + " to " + address.ToString() + ": " +
                    what);
  };
  if (address.server != server) {
    fail("a batch goes to one memory server (one QP); this one also targets server " +
         std::to_string(server));
  }
  if (address.server >= shape_.memory_servers) {
    fail("no such memory server (the cluster has " + std::to_string(shape_.memory_servers) + ")");
  }
  const uint64_t space_bytes =
      address.space == MemorySpace::kHost ? shape_.host_memory_bytes : shape_.on_chip_memory_bytes;
  if (IsAtomic(request.verb)) {
    if (address.offset % 8 != 0) fail("atomics need an 8-byte aligned address");
    if (request.length != 8) fail("atomics operate on 8 bytes");
  } else {
    if (request.length == 0) fail("zero-length transfer");
    if (request.local == nullptr) fail("no local buffer");
  }
  if (address.offset > space_bytes || request.length > space_bytes - address.offset) {
    fail(std::to_string(request.length) + " bytes run past the end of the " +
         (address.space == MemorySpace::kHost ? "host" : "on-chip") + " memory (" +
         std::to_string(space_bytes) + " bytes)");
  }
  if (request.verb == Verb::kMaskedCompareAndSwap) {
    if (!shape_.masked_compare_and_swap) {
      fail(
          "masked compare-and-swap is not available on this backend (upstream rdma-core has "
          "no masked atomics); use 64-bit locks");
    }
    if (request.mask == 0) fail("empty mask");
    for (int field = 0; field < 4; ++field) {
      const uint64_t bits = (request.mask >> (16 * field)) & 0xFFFF;
      if (bits != 0 && bits != 0xFFFF) fail("the mask must consist of whole 16-bit fields");
    }
  }
}

namespace {

void CountBatch(std::span<const WorkRequest> batch, OpStats& stats) {
  for (const WorkRequest& request : batch) {
    switch (request.verb) {
      case Verb::kRead:
        ++stats.reads;
        stats.bytes_read += request.length;
        break;
      case Verb::kWrite:
        ++stats.writes;
        stats.bytes_written += request.length;
        break;
      case Verb::kCompareAndSwap:
      case Verb::kMaskedCompareAndSwap:
        ++stats.compare_and_swaps;
        if (!request.Succeeded()) ++stats.failed_compare_and_swaps;
        break;
      case Verb::kFetchAndAdd:
        ++stats.fetch_and_adds;
        break;
    }
  }
}

}  // namespace

void Client::Count(std::span<const std::span<WorkRequest>> batches) {
  // Straight into each counter, with no delta to add up and add: a verb or
  // two a call, where building a delta of eight counters and adding it
  // twice took 70 instructions (10 M keys, the paper's settings).
  const auto count_into = [batches](OpStats& stats) {
    ++stats.round_trips;
    for (std::span<WorkRequest> batch : batches) CountBatch(batch, stats);
  };
  count_into(total_stats_);
  if (current_stats_ != nullptr) count_into(*current_stats_);
}

void Client::CountWithoutWaiting(std::span<const WorkRequest> batch) {
  CountBatch(batch, total_stats_);
  if (current_stats_ != nullptr) CountBatch(batch, *current_stats_);
}

}  // namespace dmbench::rdma
