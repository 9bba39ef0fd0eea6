// One RDMA device opened for dmbench: its context, a protection domain, and
// the port in use. Contexts come from rdma_get_devices(), the list rdma_cm
// uses too, so the queue pairs of rdma_cm ids can use this protection domain.
#pragma once

#include <infiniband/verbs.h>
#include <sys/socket.h>

#include <cstdint>
#include <string>

namespace dmbench::rdma::verbs {

class RdmaDevice {
 public:
  // By name, or (empty name) the first device with an active port. `port` 0
  // picks the device's first active port. Throws VerbError naming the
  // devices there are when none fits.
  RdmaDevice(const std::string& name, uint32_t port);
  // The device of an rdma_cm id that routing picked; checks it against a
  // configured name and port, so a wrong route is an error, not a surprise.
  RdmaDevice(ibv_context* context, uint32_t port, const std::string& expected_name,
             uint32_t expected_port);
  ~RdmaDevice();
  RdmaDevice(const RdmaDevice&) = delete;
  RdmaDevice& operator=(const RdmaDevice&) = delete;

  ibv_context* context() const { return context_; }
  ibv_pd* protection_domain() const { return protection_domain_; }
  uint32_t port() const { return port_; }
  std::string name() const;
  const ibv_device_attr_ex& attributes() const { return attributes_; }
  // Whether a CAS that fails still stores its word back, so that a WRITE to
  // the word from another QP landing in between is lost. True of Soft-RoCE
  // (rxe), known by the vendor id its driver reports (0xFFFFFF): its
  // responder reads the word, compares and stores the result under a lock
  // that RDMA WRITEs do not take. The verbs device tests measure it.
  bool FailedCasWritesBack() const;

  // Registers [address, address + bytes) for local and remote access;
  // throws VerbError naming `what` and the errno.
  ibv_mr* Register(void* address, size_t bytes, const std::string& what) const;
  // The address of the local GID at `gid_index` as a socket address, to bind
  // rdma_cm ids to (a GID of RoCE is an IP address).
  sockaddr_storage GidAddress(int32_t gid_index) const;

 private:
  void Initialise();

  ibv_context** device_list_ = nullptr;
  ibv_context* context_ = nullptr;
  ibv_pd* protection_domain_ = nullptr;
  uint32_t port_ = 0;
  ibv_device_attr_ex attributes_{};
};

// Access rights of every region dmbench registers.
constexpr int kRemoteAccess = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
                              IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC;

// "what failed: strerror(errno) (errno N)" for failed verbs calls.
std::string ErrnoText(const std::string& what, int error);

}  // namespace dmbench::rdma::verbs
