// The one-sided RDMA API that index code is written against.
//
// A Client is one coroutine on a compute server. Verbs block the calling
// coroutine (not the thread) until they complete, so index code is ordinary
// sequential code; the backend switches to other coroutines meanwhile. Every
// verb and batch is counted into the current OpStats scope.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>

#include "harness/rdma/client_location.h"
#include "harness/rdma/deferred_content.h"
#include "harness/rdma/op_stats.h"
#include "harness/rdma/work_request.h"

namespace dmbench::rdma {

class ChunkAllocator;
struct ThreadTechniques;
class WorkRequestThrottle;

// Compute-side work whose CPU time a backend may charge. Index and driver
// code say what they did; the backend prices it: the simulated fabric from
// its NIC profile, real backends not at all (they spend the time for real).
enum class CpuWork : uint8_t {
  kIndexCacheLookup,  // one lookup in the compute server's index cache
  kKeyGeneration,     // drawing one operation of the workload (key and type)
  kCrcByte,           // one byte checksummed (count = bytes)
};

class Client {
 public:
  Client(ClientLocation location, const ClusterShape& shape) : location_(location), shape_(shape) {}
  virtual ~Client() = default;
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Single verbs: one round trip each.
  void Read(GlobalAddress source, void* destination, uint32_t length);
  void Write(GlobalAddress destination, const void* source, uint32_t length);
  // Returns the word's old value; the swap happened iff it equals `expected`.
  uint64_t CompareAndSwap(GlobalAddress word, uint64_t expected, uint64_t desired);
  // Compares and swaps only the bits of `mask`, which must be made of whole
  // 16-bit fields (ConnectX extended atomics). Sim backend only.
  uint64_t MaskedCompareAndSwap(GlobalAddress word, uint64_t expected, uint64_t desired,
                                uint64_t mask);
  uint64_t FetchAndAdd(GlobalAddress word, uint64_t addend);

  // A batch: linked work requests on the QP to one memory server, only the
  // last signaled, executed in order at the responder. One round trip.
  void Execute(std::span<WorkRequest> batch);
  void Execute(std::initializer_list<WorkRequest> batch) = delete;  // results would be lost
  // Several batches, each on the QP to its memory server, posted together and
  // waited for together: one round trip (e.g. parallel leaf READs, paper §4.4).
  void ExecuteConcurrently(std::span<const std::span<WorkRequest>> batches);
  // Posts a batch of WRITEs to one memory server and returns without waiting
  // for it: an unsignaled lock release, as Sherman's lock benchmark releases
  // (unlock_addr with async set). Its bytes are copied at the post, so the
  // caller may reuse them at once. Verbs this client's thread posts later to
  // the same server take effect after it (one QP). It counts as verbs and
  // bytes but not as a round trip, since nobody waits for it. A backend may
  // still wait for it; the simulated fabric does not.
  void PostWithoutWaiting(std::span<const WorkRequest> batch);
  // Makes `content`'s blocks part of remote memory (deferred_content.h): the
  // simulated fabric builds each block when a verb first touches it, taking
  // no simulated time and no memory until then; other backends write every
  // block now, one Write each. The caller must not write to the blocks'
  // addresses otherwise before this returns.
  virtual void WriteDeferred(std::shared_ptr<const DeferredContent> content);

  // Compute-side primitives for sharing between the clients of one compute
  // server (local lock tables, handover).
  // Spends `nanoseconds` of this client's thread's CPU.
  virtual void ChargeCpu(uint64_t nanoseconds) = 0;
  // Spends the CPU time of `count` units of `work`, as the backend prices it.
  virtual void ChargeCpu(CpuWork work, uint64_t count) = 0;
  // Lets the other coroutines of this thread run.
  virtual void Yield() = 0;
  // Returns once this client's clock reads at least `nanoseconds`, letting
  // the other coroutines of its thread run meanwhile: an open-loop client
  // waiting for its next arrival. The simulated fabric suspends the client
  // without spending CPU; real backends yield in a loop, as a polling client
  // thread would.
  virtual void SleepUntil(uint64_t nanoseconds) {
    while (NowNanoseconds() < nanoseconds) Yield();
  }
  // Blocks until another client calls Unpark(*this). A wake-up that comes
  // first is kept (one permit), so wait/notify races lose nothing.
  virtual void Park() = 0;
  // Wakes `other`, a client of the same compute server.
  void Unpark(Client& other) { Unpark(other, 0); }
  // The same for a lock handed to `other` while `spinners` more clients wait
  // on the same lock word. Each of them re-reads the word's cacheline after
  // the release, so the hand-off takes longer the more they are (a ticket
  // lock's known scaling; the backend prices it, real ones pay it).
  void Unpark(Client& other, uint32_t spinners) {
    CheckCanWake(other);
    WakeUp(other, spinners);
  }
  // Time on this client's clock: simulated on the sim, monotonic elsewhere.
  virtual uint64_t NowNanoseconds() const = 0;
  // How long a READ of `length` bytes of host memory at `source` takes this
  // client on an idle fabric, on its clock, when the backend can know: the
  // simulated fabric prices it from its NIC profile; real NICs do not say.
  // Lets index code tell a loaded fabric from a request that cannot be fast.
  virtual std::optional<uint64_t> UnloadedReadNanoseconds(GlobalAddress source,
                                                          uint32_t length) const {
    (void)source;
    (void)length;
    return std::nullopt;
  }

  // The substrate's conflict avoidance (SMART §4.3, substrate_options.h),
  // no-ops when it is off. The driver pairs BeginTask and EndTask around
  // each operation; index code calls RetryAfterFailedCas after each CAS
  // that found its word taken, before it tries again.
  void BeginTask();
  void EndTask();
  void RetryAfterFailedCas();

  // Remote memory allocation, carved locally from chunks (chunk_allocator.h).
  virtual ChunkAllocator& allocator() = 0;

  const ClientLocation& location() const { return location_; }
  const ClusterShape& shape() const { return shape_; }

  // Where verbs are counted: the innermost StatsScope, and always the total.
  OpStats* current_stats() const { return current_stats_; }
  const OpStats& total_stats() const { return total_stats_; }

 protected:
  // Executes validated batches (each to one memory server) concurrently and
  // returns when all have completed; fills old_value of atomics.
  virtual void ExecuteBatches(std::span<const std::span<WorkRequest>> batches) = 0;
  // Wakes `other`, which CheckCanWake allowed.
  virtual void WakeUp(Client& other, uint32_t spinners) = 0;
  // A validated batch of WRITEs; by default executed and waited for.
  virtual void PostBatchWithoutWaiting(std::span<const WorkRequest> batch);
  // Throws VerbError unless `other` runs on this client's compute server: the
  // local primitives share memory, which only one compute server has.
  void CheckCanWake(const Client& other) const;
  // The techniques of this client's thread, owned by the backend, which
  // keeps them alive as long as the client; null when all are off.
  void AttachThreadTechniques(ThreadTechniques* techniques) { techniques_ = techniques; }

 private:
  friend class StatsScope;
  void Validate(std::span<const WorkRequest> batch) const;
  void Validate(const WorkRequest& request, uint16_t server) const;
  void Count(std::span<const std::span<WorkRequest>> batches);
  void CountWithoutWaiting(std::span<const WorkRequest> batch);
  void ExecuteThrottled(std::span<const std::span<WorkRequest>> batches,
                        WorkRequestThrottle& throttle);

  ClientLocation location_;
  ClusterShape shape_;
  OpStats* current_stats_ = nullptr;
  OpStats total_stats_;
  ThreadTechniques* techniques_ = nullptr;
};

// Counts the verbs a client issues while the scope lives into `stats`
// (in addition to any enclosing scope's counters, which it hides).
class StatsScope {
 public:
  StatsScope(Client& client, OpStats& stats) : client_(client), previous_(client.current_stats_) {
    client.current_stats_ = &stats;
  }
  ~StatsScope() { client_.current_stats_ = previous_; }
  StatsScope(const StatsScope&) = delete;
  StatsScope& operator=(const StatsScope&) = delete;

 private:
  Client& client_;
  OpStats* previous_;
};

}  // namespace dmbench::rdma
