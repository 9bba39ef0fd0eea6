// What any backend offers the code that drives it: run a body on every
// client, and the shape of the cluster. Index tests and the driver can so run
// on the simulated fabric or on real threads alike.
#pragma once

#include <functional>

#include "harness/rdma/client.h"

namespace dmbench::rdma {

class Cluster {
 public:
  using ClientBody = std::function<void(Client&)>;
  virtual ~Cluster() = default;
  // Runs `body` on every client until all return; rethrows a client's error.
  virtual void RunClients(const ClientBody& body) = 0;
  virtual const ClusterShape& shape() const = 0;
};

}  // namespace dmbench::rdma
