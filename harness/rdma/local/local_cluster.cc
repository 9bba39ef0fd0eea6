#include "harness/rdma/local/local_cluster.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <string>
#include <thread>

#include "harness/rdma/errors.h"
#include "harness/util/monotonic_clock.h"

namespace dmbench::rdma::local {

namespace {

constexpr uint32_t kMaxThreads = 512;
constexpr uintptr_t kLineBytes = 64;
constexpr size_t kLineLockStripes = 4096;
// A WRITE over more lines than this is a bulk one (LandWrite). ThreadSanitizer
// follows at most 64 locks held at once.
constexpr size_t kMaxStripesPerWrite = 32;
// So that the lines of a WRITE that is not a bulk one have distinct stripes.
static_assert(kMaxStripesPerWrite <= kLineLockStripes);

bool Aligned(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer) % 8 == 0; }

// Remote memory is read and written only through atomics (see the header).
void ReadRemote(uint8_t* remote, uint8_t* local, size_t length) {
  size_t i = 0;
  for (; i < length && !Aligned(remote + i); ++i) {
    local[i] = std::atomic_ref<uint8_t>(remote[i]).load(std::memory_order_acquire);
  }
  for (; i + 8 <= length; i += 8) {
    const uint64_t word = std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(remote + i))
                              .load(std::memory_order_acquire);
    std::memcpy(local + i, &word, 8);
  }
  for (; i < length; ++i) {
    local[i] = std::atomic_ref<uint8_t>(remote[i]).load(std::memory_order_acquire);
  }
}

void WriteRemote(uint8_t* remote, const uint8_t* local, size_t length) {
  size_t i = 0;
  for (; i < length && !Aligned(remote + i); ++i) {
    std::atomic_ref<uint8_t>(remote[i]).store(local[i], std::memory_order_release);
  }
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    std::memcpy(&word, local + i, 8);
    std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(remote + i))
        .store(word, std::memory_order_release);
  }
  for (; i < length; ++i) {
    std::atomic_ref<uint8_t>(remote[i]).store(local[i], std::memory_order_release);
  }
}

}  // namespace

LocalClient::LocalClient(LocalCluster& cluster, ClientLocation location, const ClusterShape& shape,
                         ChunkAllocator allocator)
    : Client(location, shape), cluster_(cluster), allocator_(allocator) {}

void LocalClient::ExecuteBatches(std::span<const std::span<WorkRequest>> batches) {
  for (std::span<WorkRequest> batch : batches) {
    for (WorkRequest& request : batch) cluster_.Execute(request);
  }
}

void LocalClient::ChargeCpu(uint64_t) {}  // the CPU time is spent for real

void LocalClient::Yield() { std::this_thread::yield(); }

void LocalClient::Park() {
  std::unique_lock lock(park_mutex_);
  // A run that is being aborted must not leave anyone waiting for a wake-up
  // that will never come.
  while (!permit_) {
    if (cluster_.aborting()) throw VerbError("run aborted: another client failed");
    park_signal_.wait_for(lock, std::chrono::milliseconds(10));
  }
  permit_ = false;
}

void LocalClient::WakeUp(Client& other, uint32_t) {
  auto& target = static_cast<LocalClient&>(other);
  {
    std::lock_guard lock(target.park_mutex_);
    target.permit_ = true;
  }
  target.park_signal_.notify_one();
}

uint64_t LocalClient::NowNanoseconds() const { return MonotonicNanoseconds(); }

LocalCluster::LocalCluster(const Topology& topology, uint64_t on_chip_memory_bytes)
    : topology_(topology), line_locks_(std::make_unique<std::mutex[]>(kLineLockStripes)) {
  topology_.Validate();
  if (topology_.clients() > kMaxThreads) {
    throw ConfigError("topology: the local backend runs one thread per client; at most " +
                      std::to_string(kMaxThreads) + ", got " + std::to_string(topology_.clients()));
  }
  shape_.memory_servers = topology_.memory_servers;
  shape_.compute_servers = topology_.compute_servers;
  shape_.clients = topology_.clients();
  shape_.host_memory_bytes = topology_.host_memory_bytes();
  shape_.on_chip_memory_bytes = on_chip_memory_bytes;
  shape_.masked_compare_and_swap = true;  // emulated with a CAS loop
  for (uint32_t server = 0; server < topology_.memory_servers; ++server) {
    void* mapping = mmap(nullptr, shape_.host_memory_bytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) {
      throw MemoryExhaustedError("cannot map " + std::to_string(topology_.host_memory_mib) +
                                 " MiB for memory server " + std::to_string(server));
    }
    host_memory_.push_back(static_cast<uint8_t*>(mapping));
    on_chip_memory_.push_back(std::make_unique<uint64_t[]>(on_chip_memory_bytes / 8));
  }
  uint32_t thread = 0;
  for (uint32_t cs = 0; cs < topology_.compute_servers; ++cs) {
    for (uint32_t t = 0; t < topology_.threads_per_compute_server; ++t) {
      for (uint32_t c = 0; c < topology_.coroutines_per_thread; ++c, ++thread) {
        ClientLocation location{cs, t, c, static_cast<uint32_t>(clients_.size())};
        clients_.push_back(std::make_unique<LocalClient>(
            *this, location, shape_,
            ChunkAllocator(topology_.memory_servers, shape_.host_memory_bytes,
                           topology_.chunk_bytes(), thread)));
      }
    }
  }
}

LocalCluster::~LocalCluster() {
  for (uint8_t* memory : host_memory_) munmap(memory, shape_.host_memory_bytes);
}

uint8_t* LocalCluster::Memory(const GlobalAddress& address) {
  if (address.space == MemorySpace::kHost) return host_memory_[address.server] + address.offset;
  return reinterpret_cast<uint8_t*>(on_chip_memory_[address.server].get()) + address.offset;
}

uint32_t LocalCluster::Stripe(const uint8_t* line_start) {
  const uintptr_t line = reinterpret_cast<uintptr_t>(line_start) / kLineBytes;
  return static_cast<uint32_t>(line % kLineLockStripes);
}

std::mutex& LocalCluster::LineLock(const uint8_t* line_start) {
  return line_locks_[Stripe(line_start)];
}

void LocalCluster::Execute(WorkRequest& request) {
  uint8_t* remote = Memory(request.remote);
  switch (request.verb) {
    case Verb::kRead: {
      std::shared_lock gate(bulk_gate_);
      auto* local = static_cast<uint8_t*>(request.local);
      for (size_t done = 0; done < request.length;) {
        // Lines are counted from the start of the memory space, as the
        // tree lays its nodes out, whatever the mapping's alignment.
        uint8_t* at = remote + done;
        const size_t into_line = (request.remote.offset + done) % kLineBytes;
        const size_t length = std::min<size_t>(kLineBytes - into_line, request.length - done);
        std::lock_guard lock(LineLock(at - into_line));
        ReadRemote(at, local + done, length);
        done += length;
      }
      return;
    }
    case Verb::kWrite:
      LandWrite(remote, request);
      return;
    case Verb::kFetchAndAdd:
      request.old_value = std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(remote))
                              .fetch_add(request.compare_or_add, std::memory_order_acq_rel);
      return;
    case Verb::kCompareAndSwap:
    case Verb::kMaskedCompareAndSwap: {
      std::atomic_ref<uint64_t> word(*reinterpret_cast<uint64_t*>(remote));
      uint64_t old = word.load(std::memory_order_acquire);
      // Retried only when bits outside the compared field changed under us.
      while (
          ((old ^ request.compare_or_add) & request.EffectiveMask()) == 0 &&
          !word.compare_exchange_weak(old, AtomicResult(request, old), std::memory_order_acq_rel)) {
      }
      request.old_value = old;
      return;
    }
  }
}

void LocalCluster::LandWrite(uint8_t* remote, const WorkRequest& request) {
  // Every line's lock at once, so that the WRITE lands at one instant for
  // READs (see the header), taken in ascending stripe order, the one order
  // every WRITE uses. Consecutive lines have distinct stripes, ascending but
  // where they wrap past the last. A bulk WRITE, too long to lock line by
  // line, shuts every other READ and WRITE out instead.
  std::array<uint32_t, kMaxStripesPerWrite> stripes;
  size_t count = 0;
  const size_t first_into_line = request.remote.offset % kLineBytes;
  for (size_t line = 0; line * kLineBytes < first_into_line + request.length; ++line) {
    if (count == stripes.size()) {
      std::unique_lock bulk(bulk_gate_);
      WriteRemote(remote, static_cast<const uint8_t*>(request.local), request.length);
      return;
    }
    stripes[count++] = Stripe(remote - first_into_line + line * kLineBytes);
  }
  std::sort(stripes.begin(), stripes.begin() + count);
  std::shared_lock gate(bulk_gate_);
  for (size_t i = 0; i < count; ++i) line_locks_[stripes[i]].lock();
  WriteRemote(remote, static_cast<const uint8_t*>(request.local), request.length);
  for (size_t i = 0; i < count; ++i) line_locks_[stripes[i]].unlock();
}

void LocalCluster::RunClients(const ClientBody& body) {
  aborting_.store(false, std::memory_order_release);
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  threads.reserve(clients_.size());
  for (auto& client : clients_) {
    threads.emplace_back([&, raw = client.get()] {
      try {
        body(*raw);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        aborting_.store(true, std::memory_order_release);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (auto& client : clients_) client->permit_ = false;
  if (failure) std::rethrow_exception(failure);
}

}  // namespace dmbench::rdma::local
