#include "harness/rdma/verbs/endpoint.h"

#include <netdb.h>

#include <cstring>
#include <memory>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::rdma::verbs {

Endpoint ParseEndpoint(const std::string& text, const std::string& field, bool allow_any_port) {
  auto fail = [&](const std::string& why) {
    throw ConfigError(field + ": '" + Printable(text) + "' " + why +
                      " (expected host:port, e.g. 10.0.0.1:7471)");
  };
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) fail("has no port");
  Endpoint endpoint;
  endpoint.host = text.substr(0, colon);
  if (endpoint.host.size() > 2 && endpoint.host.front() == '[' && endpoint.host.back() == ']') {
    endpoint.host = endpoint.host.substr(1, endpoint.host.size() - 2);
  }
  const std::string port = text.substr(colon + 1);
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5) {
    fail("has a port that is not a number");
  }
  const unsigned long value = std::stoul(port);
  const unsigned long lowest = allow_any_port ? 0 : 1;
  if (value < lowest || value > 65535) {
    fail("has a port outside [" + std::to_string(lowest) + ", 65535]" +
         (allow_any_port ? " (0: any free port)" : ""));
  }
  endpoint.port = static_cast<uint16_t>(value);
  return endpoint;
}

sockaddr_storage ResolveEndpoint(const Endpoint& endpoint) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(endpoint.port);
  const int status = getaddrinfo(endpoint.host.c_str(), port.c_str(), &hints, &found);
  if (status != 0 || found == nullptr) {
    throw ConfigError("cannot resolve memory server host '" + endpoint.host +
                      "': " + gai_strerror(status));
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owner(found, freeaddrinfo);
  sockaddr_storage address{};
  std::memcpy(&address, found->ai_addr, found->ai_addrlen);
  return address;
}

}  // namespace dmbench::rdma::verbs
