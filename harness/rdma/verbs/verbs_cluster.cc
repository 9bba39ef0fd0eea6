#include "harness/rdma/verbs/verbs_cluster.h"

#include <algorithm>
#include <cerrno>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/rdma/memory_layout.h"
#include "harness/rdma/verbs/verbs_client.h"
#include "harness/rdma/verbs/verbs_thread.h"

namespace dmbench::rdma::verbs {

namespace {

constexpr QueuePairCaps kCaps{.send_queue_depth = 256, .inline_bytes = 64};
constexpr uint64_t kUnlimited = ~uint64_t{0};

}  // namespace

VerbsOptions VerbsCluster::Checked(const Topology& topology, const VerbsOptions& options) {
  topology.Validate();
  if (options.memory_servers.size() != topology.memory_servers) {
    throw ConfigError("backend.memory_servers: lists " +
                      std::to_string(options.memory_servers.size()) +
                      " memory servers, but topology.memory_servers is " +
                      std::to_string(topology.memory_servers) + "; they must agree");
  }
  if (options.compute_server >= topology.compute_servers) {
    throw ConfigError("backend.compute_server: " + std::to_string(options.compute_server) +
                      " is not in [0, " + std::to_string(topology.compute_servers) +
                      ") (topology.compute_servers)");
  }
  return options;
}

std::vector<Endpoint> VerbsCluster::ParseEndpoints(const std::vector<std::string>& servers) {
  std::vector<Endpoint> endpoints;
  for (size_t i = 0; i < servers.size(); ++i) {
    endpoints.push_back(
        ParseEndpoint(servers[i], "backend.memory_servers[" + std::to_string(i) + "]"));
  }
  return endpoints;
}

VerbsCluster::VerbsCluster(const Topology& topology, const VerbsOptions& options,
                           const SubstrateOptions& substrate, uint64_t seed)
    : topology_(topology),
      options_(Checked(topology, options)),
      substrate_(substrate),
      endpoints_(ParseEndpoints(options.memory_servers)) {
  for (size_t i = 0; i < endpoints_.size(); ++i) server_tags_.push_back({static_cast<uint16_t>(i)});
  sockaddr_storage source{};
  const bool bind_source = options.gid_index >= 0;
  if (bind_source) {
    device_ = std::make_unique<RdmaDevice>(options.device, options.ib_port);
    source = device_->GidAddress(options.gid_index);
  }
  const sockaddr* source_address = bind_source ? reinterpret_cast<sockaddr*>(&source) : nullptr;
  for (uint32_t t = 0; t < topology.threads_per_compute_server; ++t) {
    threads_.push_back(ConnectThread(t, topology.memory_servers, source_address, true));
  }
  control_ = ConnectThread(topology.threads_per_compute_server, 1, source_address, false);

  shape_.memory_servers = topology.memory_servers;
  shape_.compute_servers = topology.compute_servers;
  shape_.clients = topology.clients();
  shape_.host_memory_bytes = kUnlimited;
  shape_.on_chip_memory_bytes = kUnlimited;
  shape_.masked_compare_and_swap = false;
  for (const QueuePair& queue_pair : threads_.front()->queue_pairs()) {
    const MemoryServerInfo& server = queue_pair.server;
    shape_.host_memory_bytes = std::min(shape_.host_memory_bytes, server.host.bytes);
    shape_.on_chip_memory_bytes = std::min(shape_.on_chip_memory_bytes, server.on_chip.bytes);
    shape_.failed_cas_may_overwrite_writes |= server.failed_cas_writes_back;
  }
  if (shape_.host_memory_bytes < MemoryLayout::kFirstChunkOffset + topology.chunk_bytes()) {
    throw ConfigError(
        "the memory servers register " + std::to_string(shape_.host_memory_bytes >> 20) +
        " MiB, less than the metadata area and one chunk of topology.chunk_mib (" +
        std::to_string(topology.chunk_mib) + " MiB): start them with more --memory-mib");
  }
  // Allocators and clients are made once the shape (from the servers) is known.
  for (uint32_t t = 0; t < topology.threads_per_compute_server; ++t) {
    const uint32_t global_thread = options.compute_server * topology.threads_per_compute_server + t;
    threads_[t]->SetAllocator(ChunkAllocator(topology.memory_servers, shape_.host_memory_bytes,
                                             topology.chunk_bytes(), global_thread));
    if (substrate.AnyThreadTechnique()) {
      threads_[t]->EnableTechniques(substrate, topology.coroutines_per_thread,
                                    ThreadTechniquesSeed(seed, global_thread));
    }
    for (uint32_t c = 0; c < topology.coroutines_per_thread; ++c) {
      const ClientLocation location{options.compute_server, t, c,
                                    global_thread * topology.coroutines_per_thread + c};
      threads_[t]->AddClient(std::make_unique<VerbsClient>(*threads_[t], location, shape_));
    }
  }
  const ClientLocation control_location{options.compute_server, topology.threads_per_compute_server,
                                        0, shape_.clients};
  control_->SetAllocator(
      ChunkAllocator(topology.memory_servers, shape_.host_memory_bytes, topology.chunk_bytes(), 0));
  control_->AddClient(std::make_unique<VerbsClient>(*control_, control_location, shape_));
  monitor_ = std::thread([this] { MonitorConnections(); });
}

void VerbsCluster::OpenThreadDomain(VerbsThread& thread) {
  if (!doorbell_refusal_.empty()) return;  // the device said no once; it will again
  thread.SetDomain(
      ThreadDomain::Open(device_->context(), device_->protection_domain(), &doorbell_refusal_));
}

std::unique_ptr<VerbsThread> VerbsCluster::ConnectThread(uint32_t index, uint32_t servers,
                                                         const sockaddr* source,
                                                         bool client_thread) {
  std::unique_ptr<VerbsThread> thread;
  const int timeout = static_cast<int>(options_.connect_timeout_ms);
  for (uint32_t s = 0; s < servers; ++s) {
    const std::string label = ServerLabel(static_cast<uint16_t>(s));
    rdma_cm_id* id = ResolveRoute(channel_, endpoints_[s], source, timeout, &server_tags_[s]);
    try {
      if (device_ == nullptr) {
        device_ = std::make_unique<RdmaDevice>(id->verbs, id->port_num, options_.device,
                                               options_.ib_port);
      } else if (id->verbs != device_->context()) {
        throw VerbError("memory server " + label + " is reached through device " +
                        ibv_get_device_name(id->verbs->device) + ", the others through " +
                        device_->name() + "; one compute server uses one device");
      }
      if (thread == nullptr) {
        const int entries = static_cast<int>(kCaps.send_queue_depth * servers + 16);
        ibv_cq* cq = ibv_create_cq(device_->context(), entries, nullptr, nullptr, 0);
        if (cq == nullptr) throw VerbError(ErrnoText("ibv_create_cq", errno));
        thread = std::make_unique<VerbsThread>(*this, index, cq);
        if (client_thread && substrate_.per_thread_doorbells) OpenThreadDomain(*thread);
      }
      ibv_pd* domain = thread->domain() != nullptr ? thread->domain()->parent_domain()
                                                   : device_->protection_domain();
      const CmConnection connection =
          Connect(channel_, id, domain, thread->cq(), kCaps, label, timeout);
      thread->AddQueuePair(
          {id, kCaps.send_queue_depth, 0, connection.inline_bytes, connection.server});
    } catch (...) {
      if (id->qp != nullptr) rdma_destroy_qp(id);
      rdma_destroy_id(id);
      throw;
    }
  }
  return thread;
}

VerbsCluster::~VerbsCluster() {
  stop_monitor_.store(true, std::memory_order_release);
  if (monitor_.joinable()) monitor_.join();
  control_.reset();
  threads_.clear();
}

void VerbsCluster::MonitorConnections() {
  while (!stop_monitor_.load(std::memory_order_acquire)) {
    rdma_cm_event* event = channel_.Next(100);
    if (event == nullptr) continue;
    const rdma_cm_event_type type = event->event;
    const auto* tag = static_cast<const ServerTag*>(event->id->context);
    rdma_ack_cm_event(event);
    if (type == RDMA_CM_EVENT_DISCONNECTED || type == RDMA_CM_EVENT_DEVICE_REMOVAL) {
      Abort("memory server " + ServerLabel(tag->server) + " closed its connection (" +
            EventName(type) + "): it stopped or crashed");
    }
  }
}

std::string VerbsCluster::ServerLabel(uint16_t server) const {
  return std::to_string(server) + " (" + endpoints_[server].ToString() + ")";
}

std::string VerbsCluster::abort_reason() const {
  std::lock_guard lock(abort_mutex_);
  return abort_reason_;
}

void VerbsCluster::ThrowIfAborting() const {
  if (aborting()) throw VerbError("run aborted: " + abort_reason());
}

void VerbsCluster::Abort(const std::string& reason) {
  std::lock_guard lock(abort_mutex_);
  if (abort_reason_.empty()) abort_reason_ = reason;
  aborting_.store(true, std::memory_order_release);
}

void VerbsCluster::RunClients(const ClientBody& body) {
  if (aborting())
    throw VerbError("the cluster is unusable after an earlier failure: " + abort_reason());
  std::vector<std::exception_ptr> failures(threads_.size());
  std::vector<char> consequences(threads_.size(), 0);
  std::vector<std::thread> workers;
  for (size_t t = 0; t < threads_.size(); ++t) {
    workers.emplace_back([&, t] {
      bool consequence = false;
      failures[t] = threads_[t]->Run(body, &consequence);
      consequences[t] = consequence;
    });
  }
  for (std::thread& worker : workers) worker.join();
  // The cause, not the failures it caused elsewhere.
  std::exception_ptr chosen;
  for (size_t t = 0; t < threads_.size(); ++t) {
    if (failures[t] && (!chosen || !consequences[t])) {
      chosen = failures[t];
      if (!consequences[t]) break;
    }
  }
  if (chosen) std::rethrow_exception(chosen);
}

VerbsCluster::BarrierPassage VerbsCluster::Barrier(uint32_t phase, const std::string& name) {
  if (phase >= MemoryLayout::kSubstrateAreaBytes / 8) {
    throw VerbError("barrier phase " + std::to_string(phase) + " is outside the substrate area");
  }
  const GlobalAddress word = GlobalAddress::Host(0, MemoryLayout::kSubstrateAreaOffset + 8 * phase);
  const uint64_t compute_servers = topology_.compute_servers;
  BarrierPassage passage;
  bool consequence = false;
  const std::exception_ptr failure = control_->Run(
      [&](Client& client) {
        // The release is the last arrival's FAA. It happened after this
        // process posted its own FAA and, once a READ saw it, after the READ
        // before that one was posted: `previous_post` bounds it from below,
        // so the uncertainty holds even when this process is descheduled.
        uint64_t previous_post = client.NowNanoseconds();
        // Counting up, never resetting, lets later runs on the same memory
        // servers use the same word: each waits for the next multiple.
        const uint64_t arrived = client.FetchAndAdd(word, 1);
        const uint64_t target = (arrived / compute_servers + 1) * compute_servers;
        const uint64_t deadline =
            client.NowNanoseconds() + uint64_t{options_.barrier_timeout_ms} * 1000000;
        for (;;) {
          const uint64_t posted = client.NowNanoseconds();
          uint64_t value = 0;
          client.Read(word, &value, sizeof(value));
          const uint64_t done = client.NowNanoseconds();
          if (value >= target) {
            passage = {done, done - previous_post};
            return;
          }
          previous_post = posted;
          if (done > deadline) {
            throw VerbError("barrier '" + name + "': " + std::to_string(target - value) + " of " +
                            std::to_string(compute_servers) +
                            " compute servers did not arrive within " +
                            std::to_string(options_.barrier_timeout_ms) +
                            " ms (are they all running with the same config? "
                            "backend.barrier_timeout_ms sets the limit)");
          }
          ThrowIfAborting();
        }
      },
      &consequence);
  if (failure) std::rethrow_exception(failure);
  return passage;
}

std::vector<std::string> VerbsCluster::fallbacks() const {
  std::vector<std::string> fallbacks;
  const std::vector<QueuePair>& servers = threads_.front()->queue_pairs();
  for (uint16_t s = 0; s < servers.size(); ++s) {
    const MemoryServerInfo& server = servers[s].server;
    if (!server.on_chip_is_device_memory) {
      fallbacks.push_back("memory server " + ServerLabel(s) + ": " + server.FallbackReason());
    }
    if (server.failed_cas_writes_back) {
      fallbacks.push_back("memory server " + ServerLabel(s) +
                          ": its device stores a failing CAS's word back, which would lose a "
                          "lock release WRITE landing in between, so locks are released by "
                          "fetch-and-add (as index.faa_release)");
    }
  }
  if (!doorbell_refusal_.empty()) {
    fallbacks.push_back("substrate.per_thread_doorbells: device " + device_->name() +
                        " gives no thread domain (" + doorbell_refusal_ +
                        "), so each thread's QPs ring the doorbells its provider assigns");
  }
  return fallbacks;
}

nlohmann::json VerbsCluster::Describe() const {
  // Every thread's queue pairs connect to the same servers with the same caps.
  const std::vector<QueuePair>& queue_pairs = threads_.front()->queue_pairs();
  nlohmann::json servers = nlohmann::json::array();
  for (size_t s = 0; s < endpoints_.size(); ++s) {
    const bool device_memory = queue_pairs[s].server.on_chip_is_device_memory;
    servers.push_back({{"endpoint", endpoints_[s].ToString()},
                       {"on_chip", device_memory ? "device memory" : "host memory"},
                       {"failed_cas_writes_back", queue_pairs[s].server.failed_cas_writes_back}});
  }
  return {{"type", "verbs"},
          {"device", device_->name()},
          {"port", device_->port()},
          {"gid_index", options_.gid_index},
          {"compute_server", options_.compute_server},
          {"memory_servers", servers},
          {"host_memory_bytes", shape_.host_memory_bytes},
          {"on_chip_memory_bytes", shape_.on_chip_memory_bytes},
          {"max_inline_data", queue_pairs.front().inline_bytes},
          {"send_queue_depth", kCaps.send_queue_depth},
          {"doorbells", threads_.front()->domain() != nullptr ? "per-thread (thread domains)"
                                                              : "the provider's"},
          {"fallbacks", fallbacks()}};
}

}  // namespace dmbench::rdma::verbs
