#include "harness/rdma/verbs/memory_server.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "harness/rdma/errors.h"

namespace dmbench::rdma::verbs {

namespace {

void* MapZeroed(size_t bytes, bool huge_pages, const std::string& what) {
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | (huge_pages ? MAP_HUGETLB : 0);
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (memory == MAP_FAILED) {
    throw MemoryExhaustedError(ErrnoText(
        "cannot map " + std::to_string(bytes >> 20) + " MiB of " + what +
            (huge_pages ? " in huge pages (are enough reserved? see /proc/sys/vm/nr_hugepages)"
                        : ""),
        errno));
  }
  return memory;
}

// `options`, once its sizes are checked. Called, and --listen parsed, as the
// first members are built, before those that open the RDMA device: bad input
// is refused as such on any machine, not reported as a missing device.
const ServeOptions& Checked(const ServeOptions& options) {
  if (options.host_memory_mib < 2) {
    throw ConfigError("--memory-mib: at least 2 (1 MiB of metadata and one chunk), got " +
                      std::to_string(options.host_memory_mib));
  }
  if (options.on_chip_kib < 1) throw ConfigError("--on-chip-kib: at least 1");
  return options;
}

}  // namespace

MemoryServer::MemoryServer(const ServeOptions& options)
    : options_(Checked(options)),
      listen_(ParseEndpoint(options.listen, "--listen", /*allow_any_port=*/true)) {
  sockaddr_storage address = ResolveEndpoint(listen_);
  if (rdma_create_id(channel_.get(), &listener_, nullptr, RDMA_PS_TCP) != 0) {
    throw VerbError(ErrnoText("rdma_create_id", errno));
  }
  if (rdma_bind_addr(listener_, reinterpret_cast<sockaddr*>(&address)) != 0) {
    throw VerbError(ErrnoText("cannot bind " + options.listen +
                                  " for RDMA (is the address one of an RDMA device's? is the "
                                  "port free?)",
                              errno));
  }
  // A listener bound to a device's address knows its device; one bound to
  // the wildcard address does not, and the configured or first one is used.
  device_ = listener_->verbs != nullptr
                ? std::make_unique<RdmaDevice>(listener_->verbs,
                                               listener_->port_num != 0 ? listener_->port_num : 1,
                                               options.device, options.ib_port)
                : std::make_unique<RdmaDevice>(options.device, options.ib_port);
  host_bytes_ = options.host_memory_mib << 20;
  host_memory_ = MapZeroed(host_bytes_, options.huge_pages, "host memory");
  host_region_ = device_->Register(host_memory_, host_bytes_, "the host memory");
  info_.host = {reinterpret_cast<uint64_t>(host_memory_), host_bytes_, host_region_->rkey};
  AllocateOnChip();
  info_.failed_cas_writes_back = device_->FailedCasWritesBack();
  cq_ = ibv_create_cq(device_->context(), 16, nullptr, nullptr, 0);
  if (cq_ == nullptr) throw VerbError(ErrnoText("ibv_create_cq", errno));
  if (rdma_listen(listener_, 64) != 0) {
    throw VerbError(ErrnoText("rdma_listen on " + options.listen, errno));
  }
}

void MemoryServer::AllocateOnChip() {
  const uint64_t bytes = options_.on_chip_kib << 10;
  info_.device_memory_offered = device_->attributes().max_dm_size;
  if (info_.device_memory_offered >= bytes) {
    ibv_alloc_dm_attr request{};
    request.length = bytes;
    device_memory_ = ibv_alloc_dm(device_->context(), &request);
    if (device_memory_ == nullptr) {
      info_.device_memory_errno = static_cast<uint32_t>(errno);
    } else {
      // Device memory starts with whatever the last user left there.
      const std::vector<uint8_t> zeros(bytes, 0);
      if (ibv_memcpy_to_dm(device_memory_, 0, zeros.data(), bytes) != 0) {
        throw VerbError(ErrnoText("ibv_memcpy_to_dm (zeroing the lock area)", errno));
      }
      on_chip_region_ = ibv_reg_dm_mr(device_->protection_domain(), device_memory_, 0, bytes,
                                      kRemoteAccess | IBV_ACCESS_ZERO_BASED);
      if (on_chip_region_ == nullptr) throw VerbError(ErrnoText("ibv_reg_dm_mr", errno));
      info_.on_chip = {0, bytes, on_chip_region_->rkey};  // zero-based: offsets are addresses
      info_.on_chip_is_device_memory = true;
      return;
    }
  }
  on_chip_host_memory_ = MapZeroed(bytes, false, "host memory for the on-chip lock area");
  on_chip_region_ = device_->Register(on_chip_host_memory_, bytes, "the on-chip stand-in");
  info_.on_chip = {reinterpret_cast<uint64_t>(on_chip_host_memory_), bytes, on_chip_region_->rkey};
}

MemoryServer::~MemoryServer() {
  // Closing the connections tells the compute servers at once.
  for (rdma_cm_id* id : connections_) {
    rdma_disconnect(id);
    rdma_destroy_qp(id);
    rdma_destroy_id(id);
  }
  if (listener_ != nullptr) rdma_destroy_id(listener_);
  if (cq_ != nullptr) ibv_destroy_cq(cq_);
  if (on_chip_region_ != nullptr) ibv_dereg_mr(on_chip_region_);
  if (device_memory_ != nullptr) ibv_free_dm(device_memory_);
  if (on_chip_host_memory_ != nullptr) munmap(on_chip_host_memory_, options_.on_chip_kib << 10);
  if (host_region_ != nullptr) ibv_dereg_mr(host_region_);
  if (host_memory_ != nullptr) munmap(host_memory_, host_bytes_);
}

uint16_t MemoryServer::port() const { return ntohs(rdma_get_src_port(listener_)); }

std::string MemoryServer::Describe() const {
  return "listening on port " + std::to_string(port()) + " of " + device_->name() + " port " +
         std::to_string(device_->port()) + ": " + std::to_string(host_bytes_ >> 20) +
         " MiB host memory, " + std::to_string(info_.on_chip.bytes >> 10) + " KiB on-chip " +
         (info_.on_chip_is_device_memory
              ? "in NIC device memory"
              : "memory in host memory (" + info_.FallbackReason() + ")") +
         (info_.failed_cas_writes_back ? "; a failing CAS stores its word back" : "");
}

void MemoryServer::Accept(rdma_cm_id* id, const rdma_conn_param& request, std::ostream* log) {
  auto refuse = [&](const std::string& why) {
    if (log) *log << "dmbench serve: refused a connection: " << why << "\n";
    rdma_reject(id, nullptr, 0);
    rdma_destroy_id(id);
  };
  if (id->verbs != device_->context()) {
    refuse("it arrived on device " + std::string(ibv_get_device_name(id->verbs->device)) +
           ", but the memory is registered with " + device_->name());
    return;
  }
  ibv_qp_init_attr attributes{};
  attributes.send_cq = cq_;
  attributes.recv_cq = cq_;
  attributes.qp_type = IBV_QPT_RC;
  attributes.cap.max_send_wr = 1;
  attributes.cap.max_recv_wr = 1;
  attributes.cap.max_send_sge = 1;
  attributes.cap.max_recv_sge = 1;
  if (rdma_create_qp(id, device_->protection_domain(), &attributes) != 0) {
    refuse(ErrnoText("rdma_create_qp", errno));
    return;
  }
  const std::vector<uint8_t> data = info_.Encode();
  rdma_conn_param parameters{};
  parameters.private_data = data.data();
  parameters.private_data_len = static_cast<uint8_t>(data.size());
  // The compute server's READs and atomics in flight at once.
  parameters.responder_resources = static_cast<uint8_t>(
      std::min<int>(request.initiator_depth, device_->attributes().orig_attr.max_qp_rd_atom));
  parameters.initiator_depth = 0;
  parameters.rnr_retry_count = 7;
  if (rdma_accept(id, &parameters) != 0) {
    const std::string error = ErrnoText("rdma_accept", errno);
    rdma_destroy_qp(id);
    refuse(error);
    return;
  }
  connections_.insert(id);
}

void MemoryServer::RevokeRegistrations() {
  if (host_region_ != nullptr) ibv_dereg_mr(host_region_);
  if (on_chip_region_ != nullptr) ibv_dereg_mr(on_chip_region_);
  host_region_ = on_chip_region_ = nullptr;
}

void MemoryServer::Serve(const std::atomic<bool>& stop, std::ostream* log) {
  uint64_t ever_connected = 0;
  while (!stop.load(std::memory_order_acquire)) {
    rdma_cm_event* event = channel_.Next(100);
    if (event == nullptr) continue;
    rdma_cm_id* id = event->id;
    const rdma_cm_event_type type = event->event;
    const rdma_conn_param request = event->param.conn;
    rdma_ack_cm_event(event);
    switch (type) {
      case RDMA_CM_EVENT_CONNECT_REQUEST:
        Accept(id, request, log);
        break;
      case RDMA_CM_EVENT_ESTABLISHED:
        ++ever_connected;
        break;
      case RDMA_CM_EVENT_DISCONNECTED:
        if (connections_.erase(id) == 0) break;
        rdma_disconnect(id);
        rdma_destroy_qp(id);
        rdma_destroy_id(id);
        if (options_.exit_when_idle && connections_.empty() && ever_connected > 0) {
          if (log) *log << "dmbench serve: every compute server has gone; exiting\n";
          return;
        }
        break;
      case RDMA_CM_EVENT_CONNECT_ERROR:
      case RDMA_CM_EVENT_UNREACHABLE:
      case RDMA_CM_EVENT_REJECTED:
        // A compute server that gave up mid-handshake: its to report.
        if (log) *log << "dmbench serve: a connection failed: " << EventName(type) << "\n";
        if (connections_.erase(id) == 0) break;
        rdma_destroy_qp(id);
        rdma_destroy_id(id);
        break;
      case RDMA_CM_EVENT_DEVICE_REMOVAL:
        throw VerbError("the RDMA device " + device_->name() + " was removed");
      default:
        break;
    }
  }
}

}  // namespace dmbench::rdma::verbs
