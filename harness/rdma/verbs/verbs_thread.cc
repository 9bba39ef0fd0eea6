#include "harness/rdma/verbs/verbs_thread.h"

#include "harness/rdma/errors.h"
#include "harness/rdma/verbs/verbs_client.h"
#include "harness/rdma/verbs/verbs_cluster.h"
#include "harness/util/monotonic_clock.h"

namespace dmbench::rdma::verbs {

namespace {

constexpr size_t kStackBytes = 256 << 10;
constexpr int kCompletionsPerPoll = 32;
// Deadlines are checked every so many scheduler rounds, not on every one.
constexpr uint32_t kRoundsPerDeadlineCheck = 1024;

std::string Message(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& error) {
    return error.what();
  } catch (...) {
    return "unknown error";
  }
}

}  // namespace

VerbsThread::VerbsThread(VerbsCluster& cluster, uint32_t index, ibv_cq* cq)
    : cluster_(cluster), index_(index), cq_(cq) {}

VerbsThread::~VerbsThread() {
  // Queue pairs go first: until they are gone the NIC may still write into
  // the clients' staging buffers.
  for (QueuePair& queue_pair : queue_pairs_) {
    rdma_disconnect(queue_pair.id);
    rdma_destroy_qp(queue_pair.id);
    rdma_destroy_id(queue_pair.id);
  }
  clients_.clear();
  if (cq_ != nullptr) ibv_destroy_cq(cq_);
}

void VerbsThread::AddClient(std::unique_ptr<VerbsClient> client) {
  clients_.push_back(std::move(client));
}

void VerbsThread::PollCompletions() {
  ibv_wc completions[kCompletionsPerPoll];
  const int count = ibv_poll_cq(cq_, kCompletionsPerPoll, completions);
  if (count < 0) throw VerbError("ibv_poll_cq failed on client thread " + std::to_string(index_));
  for (int i = 0; i < count; ++i) {
    const auto* tag = reinterpret_cast<const VerbsClient::RequestTag*>(completions[i].wr_id);
    tag->client->Complete(completions[i], *tag);
  }
}

std::exception_ptr VerbsThread::Run(const Cluster::ClientBody& body, bool* consequence) {
  for (auto& client : clients_) {
    client->failure_is_consequence_ = false;
    client->waiting_for_slots_ = false;
    client->permit_.store(false, std::memory_order_relaxed);
    client->coroutine_.Start([raw = client.get(), &body] { body(*raw); }, kStackBytes);
  }
  std::exception_ptr failure;
  VerbsClient* current = nullptr;
  try {
    for (uint32_t round = 0;; ++round) {
      PollCompletions();
      const bool check_deadlines = round % kRoundsPerDeadlineCheck == 0;
      const uint64_t now = check_deadlines ? MonotonicNanoseconds() : 0;
      bool running = false;
      for (auto& client : clients_) {
        if (client->coroutine_.finished()) continue;
        running = true;
        if (check_deadlines) client->CheckDeadline(now);
        if (!client->Runnable()) continue;
        current = client.get();
        client->coroutine_.Resume();
        current = nullptr;
      }
      if (!running) break;
    }
  } catch (...) {
    failure = std::current_exception();
    *consequence = current != nullptr && current->failure_is_consequence_;
    cluster_.Abort(Message(failure));
  }
  // Unwinds the coroutines still suspended: their work requests may still be
  // in flight, but they only touch the clients' own staging buffers.
  for (auto& client : clients_) client->coroutine_.Destroy();
  return failure;
}

}  // namespace dmbench::rdma::verbs
