// A first-come-first-served resource (a link direction, a NIC's message
// engine, a PCIe direction): work arriving at `arrival` starts when the
// resource is free and holds it for `service`. Reservations are made in
// posting order, which is the simulator's approximation of arrival order.
#pragma once

#include <algorithm>

#include "harness/rdma/sim/sim_time.h"

namespace dmbench::rdma::sim {

class SerialResource {
 public:
  // Returns when the work completes.
  SimTime Serve(SimTime arrival, SimTime service) {
    const SimTime start = std::max(arrival, free_at_);
    free_at_ = start + service;
    busy_ += service;
    return free_at_;
  }
  SimTime free_at() const { return free_at_; }
  SimTime busy() const { return busy_; }

 private:
  SimTime free_at_ = 0;
  SimTime busy_ = 0;
};

}  // namespace dmbench::rdma::sim
