// A memory server's address as users write it: "host:port".
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>

namespace dmbench::rdma::verbs {

struct Endpoint {
  std::string host;
  uint16_t port = 0;

  std::string ToString() const { return host + ":" + std::to_string(port); }
};

// Throws ConfigError naming `field` unless `text` is "host:port" with a port
// in [1, 65535] ("[v6addr]:port" for IPv6). A listener may ask for port 0:
// any free port.
Endpoint ParseEndpoint(const std::string& text, const std::string& field,
                       bool allow_any_port = false);

// The endpoint's address for rdma_cm; throws ConfigError when the host does
// not resolve.
sockaddr_storage ResolveEndpoint(const Endpoint& endpoint);

}  // namespace dmbench::rdma::verbs
