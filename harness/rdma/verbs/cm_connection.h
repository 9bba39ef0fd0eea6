// Connection set-up with librdmacm, for both ends: an event channel whose
// events are awaited with a deadline, and the compute server's side of a
// connection to one memory server (route, queue pair, connect, and the
// memory server's regions from the accept's private data).
#pragma once

#include <rdma/rdma_cma.h>

#include <cstdint>
#include <string>

#include "harness/rdma/verbs/endpoint.h"
#include "harness/rdma/verbs/memory_server_info.h"

namespace dmbench::rdma::verbs {

class CmEventChannel {
 public:
  CmEventChannel();
  ~CmEventChannel();
  CmEventChannel(const CmEventChannel&) = delete;
  CmEventChannel& operator=(const CmEventChannel&) = delete;

  rdma_event_channel* get() const { return channel_; }
  // The next event, or nullptr when none came within `timeout_ms`. The
  // caller acknowledges it (rdma_ack_cm_event).
  rdma_cm_event* Next(int timeout_ms);
  // Waits for `expected` on `id`; any other event, or none in time, throws
  // VerbError naming `peer` and what happened instead.
  void Expect(rdma_cm_id* id, rdma_cm_event_type expected, int timeout_ms, const std::string& peer,
              MemoryServerInfo* accepted = nullptr);

 private:
  rdma_event_channel* channel_ = nullptr;
};

// Queue-pair sizes of a compute server's connections.
struct QueuePairCaps {
  uint32_t send_queue_depth = 256;
  uint32_t inline_bytes = 64;  // asked for; the device may grant less
};

struct CmConnection {
  rdma_cm_id* id = nullptr;
  MemoryServerInfo server;
  uint32_t inline_bytes = 0;  // granted
};

// Resolves the address and route to `peer`; the id's `verbs` then names the
// device the route goes through. `source` may be null (routing picks).
rdma_cm_id* ResolveRoute(CmEventChannel& channel, const Endpoint& peer, const sockaddr* source,
                         int timeout_ms, void* context);

// Creates the queue pair on a resolved id (completions to `cq`) and
// connects; the memory server's regions come back with the accept.
CmConnection Connect(CmEventChannel& channel, rdma_cm_id* id, ibv_pd* protection_domain, ibv_cq* cq,
                     const QueuePairCaps& caps, const std::string& peer, int timeout_ms);

// The name of an rdma_cm event, for messages.
std::string EventName(rdma_cm_event_type type);

}  // namespace dmbench::rdma::verbs
