#include "harness/rdma/verbs/rdma_device.h"

#include <netinet/in.h>
#include <rdma/rdma_cma.h>

#include <cerrno>
#include <cstring>

#include "harness/rdma/errors.h"

namespace dmbench::rdma::verbs {

namespace {

bool PortActive(ibv_context* context, uint32_t port) {
  ibv_port_attr attributes{};
  return ibv_query_port(context, static_cast<uint8_t>(port), &attributes) == 0 &&
         attributes.state == IBV_PORT_ACTIVE;
}

// The first active port, or 0.
uint32_t FirstActivePort(ibv_context* context) {
  ibv_device_attr attributes{};
  if (ibv_query_device(context, &attributes) != 0) return 0;
  for (uint32_t port = 1; port <= attributes.phys_port_cnt; ++port) {
    if (PortActive(context, port)) return port;
  }
  return 0;
}

std::string DeviceNames(ibv_context** list) {
  std::string names;
  for (ibv_context** device = list; device != nullptr && *device != nullptr; ++device) {
    names += (names.empty() ? "" : ", ") + std::string(ibv_get_device_name((*device)->device));
  }
  return names.empty() ? "none" : names;
}

}  // namespace

std::string ErrnoText(const std::string& what, int error) {
  return what + ": " + std::strerror(error) + " (errno " + std::to_string(error) + ")";
}

RdmaDevice::RdmaDevice(const std::string& name, uint32_t port) {
  int count = 0;
  device_list_ = rdma_get_devices(&count);
  if (device_list_ == nullptr || count == 0) {
    if (device_list_ != nullptr) rdma_free_devices(device_list_);
    throw VerbError(
        "no RDMA device found (is an RDMA NIC or Soft-RoCE configured? 'ibv_devices' lists them; "
        "without one, use backend.type sim)");
  }
  for (int i = 0; i < count && context_ == nullptr; ++i) {
    ibv_context* candidate = device_list_[i];
    if (!name.empty() && name != ibv_get_device_name(candidate->device)) continue;
    const uint32_t chosen = port != 0 ? port : FirstActivePort(candidate);
    if (chosen != 0 && PortActive(candidate, chosen)) {
      context_ = candidate;
      port_ = chosen;
    } else if (!name.empty()) {
      const std::string names = DeviceNames(device_list_);
      rdma_free_devices(device_list_);
      throw VerbError("RDMA device " + name + " has no active port" +
                      (port != 0 ? " " + std::to_string(port) : std::string()) +
                      " (devices: " + names + ")");
    }
  }
  if (context_ == nullptr) {
    const std::string names = DeviceNames(device_list_);
    rdma_free_devices(device_list_);
    throw VerbError(name.empty() ? "no RDMA device has an active port (devices: " + names + ")"
                                 : "no RDMA device named " + name + " (devices: " + names + ")");
  }
  Initialise();
}

RdmaDevice::RdmaDevice(ibv_context* context, uint32_t port, const std::string& expected_name,
                       uint32_t expected_port)
    : context_(context), port_(port) {
  const std::string actual = ibv_get_device_name(context->device);
  if (!expected_name.empty() && expected_name != actual) {
    throw VerbError("the route to the memory servers goes through device " + actual +
                    ", not the configured " + expected_name +
                    " (set backend.device to match, or backend.gid_index to pick the source "
                    "address)");
  }
  if (expected_port != 0 && expected_port != port) {
    throw VerbError("the route to the memory servers goes through port " + std::to_string(port) +
                    " of " + actual + ", not the configured port " + std::to_string(expected_port));
  }
  Initialise();
}

void RdmaDevice::Initialise() {
  if (ibv_query_device_ex(context_, nullptr, &attributes_) != 0) {
    throw VerbError(ErrnoText("ibv_query_device_ex on " + name(), errno));
  }
  protection_domain_ = ibv_alloc_pd(context_);
  if (protection_domain_ == nullptr) {
    throw VerbError(ErrnoText("ibv_alloc_pd on " + name(), errno));
  }
}

RdmaDevice::~RdmaDevice() {
  if (protection_domain_ != nullptr) ibv_dealloc_pd(protection_domain_);
  if (device_list_ != nullptr) rdma_free_devices(device_list_);
}

std::string RdmaDevice::name() const { return ibv_get_device_name(context_->device); }

bool RdmaDevice::FailedCasWritesBack() const {
  constexpr uint32_t kSoftRoceVendorId = 0xFFFFFF;
  return attributes_.orig_attr.vendor_id == kSoftRoceVendorId;
}

ibv_mr* RdmaDevice::Register(void* address, size_t bytes, const std::string& what) const {
  ibv_mr* region = ibv_reg_mr(protection_domain_, address, bytes, kRemoteAccess);
  if (region == nullptr) {
    throw VerbError(ErrnoText("cannot register " + what + " (" + std::to_string(bytes) +
                                  " bytes) with " + name() +
                                  "; is the locked-memory limit (ulimit -l) high enough?",
                              errno));
  }
  return region;
}

sockaddr_storage RdmaDevice::GidAddress(int32_t gid_index) const {
  ibv_gid gid{};
  if (ibv_query_gid(context_, static_cast<uint8_t>(port_), gid_index, &gid) != 0) {
    throw ConfigError("backend.gid_index: " + std::to_string(gid_index) + " is not a GID of " +
                      name() + " port " + std::to_string(port_) + " ('ibv_devinfo -v' lists them)");
  }
  sockaddr_storage address{};
  static constexpr uint8_t kV4MappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(gid.raw, kV4MappedPrefix, sizeof(kV4MappedPrefix)) == 0) {
    auto* v4 = reinterpret_cast<sockaddr_in*>(&address);
    v4->sin_family = AF_INET;
    std::memcpy(&v4->sin_addr, gid.raw + 12, 4);
  } else if (gid.raw[0] == 0xfe && (gid.raw[1] & 0xc0) == 0x80) {
    throw ConfigError("backend.gid_index: GID " + std::to_string(gid_index) + " of " + name() +
                      " is an IPv6 link-local address, which rdma_cm cannot bind without a "
                      "scope; choose a GID with a routable address");
  } else {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&address);
    v6->sin6_family = AF_INET6;
    std::memcpy(&v6->sin6_addr, gid.raw, 16);
  }
  return address;
}

}  // namespace dmbench::rdma::verbs
