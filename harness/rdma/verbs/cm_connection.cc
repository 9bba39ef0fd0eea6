#include "harness/rdma/verbs/cm_connection.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "harness/rdma/errors.h"
#include "harness/rdma/verbs/rdma_device.h"

namespace dmbench::rdma::verbs {

namespace {

// Rejections of a connection request, in the words a user needs.
std::string RejectionHint(int status) {
  // ib_cm reason 8 (invalid service id) and 28 (consumer defined) are what a
  // port with no listener and a listener that refused give.
  if (status == 8) return ": nothing listens there (is 'dmbench serve' running on that port?)";
  if (status == 28) return ": the memory server refused the connection (see its log)";
  return "";
}

}  // namespace

std::string EventName(rdma_cm_event_type type) { return rdma_event_str(type); }

CmEventChannel::CmEventChannel() : channel_(rdma_create_event_channel()) {
  if (channel_ == nullptr) {
    throw VerbError(
        ErrnoText("rdma_create_event_channel (is the rdma_ucm kernel module loaded?)", errno));
  }
}

CmEventChannel::~CmEventChannel() { rdma_destroy_event_channel(channel_); }

rdma_cm_event* CmEventChannel::Next(int timeout_ms) {
  pollfd descriptor{channel_->fd, POLLIN, 0};
  const int ready = poll(&descriptor, 1, timeout_ms);
  if (ready < 0 && errno != EINTR) throw VerbError(ErrnoText("poll on the rdma_cm channel", errno));
  if (ready <= 0) return nullptr;
  rdma_cm_event* event = nullptr;
  if (rdma_get_cm_event(channel_, &event) != 0) {
    throw VerbError(ErrnoText("rdma_get_cm_event", errno));
  }
  return event;
}

void CmEventChannel::Expect(rdma_cm_id* id, rdma_cm_event_type expected, int timeout_ms,
                            const std::string& peer, MemoryServerInfo* accepted) {
  rdma_cm_event* event = Next(timeout_ms);
  if (event == nullptr) {
    throw VerbError("memory server " + peer + ": no answer within " + std::to_string(timeout_ms) +
                    " ms waiting for " + EventName(expected) +
                    " (is it running and reachable over RDMA? backend.connect_timeout_ms sets "
                    "the limit)");
  }
  const rdma_cm_event_type type = event->event;
  const int status = event->status;
  const bool ours = event->id == id;
  std::string error;
  if (type != expected || !ours) {
    error = "memory server " + peer + ": " + EventName(type) + " (status " +
            std::to_string(status) + ") while waiting for " + EventName(expected) +
            (type == RDMA_CM_EVENT_REJECTED ? RejectionHint(status) : "");
  } else if (accepted != nullptr) {
    try {
      *accepted = MemoryServerInfo::Decode(event->param.conn.private_data,
                                           event->param.conn.private_data_len, peer);
    } catch (const VerbError& decode_error) {
      error = decode_error.what();
    }
  }
  rdma_ack_cm_event(event);
  if (!error.empty()) throw VerbError(error);
}

rdma_cm_id* ResolveRoute(CmEventChannel& channel, const Endpoint& peer, const sockaddr* source,
                         int timeout_ms, void* context) {
  sockaddr_storage destination = ResolveEndpoint(peer);
  rdma_cm_id* id = nullptr;
  if (rdma_create_id(channel.get(), &id, context, RDMA_PS_TCP) != 0) {
    throw VerbError(ErrnoText("rdma_create_id", errno));
  }
  try {
    if (rdma_resolve_addr(id, const_cast<sockaddr*>(source),
                          reinterpret_cast<sockaddr*>(&destination), timeout_ms) != 0) {
      throw VerbError(ErrnoText("memory server " + peer.ToString() + ": rdma_resolve_addr", errno));
    }
    channel.Expect(id, RDMA_CM_EVENT_ADDR_RESOLVED, timeout_ms + 1000, peer.ToString());
    if (rdma_resolve_route(id, timeout_ms) != 0) {
      throw VerbError(
          ErrnoText("memory server " + peer.ToString() + ": rdma_resolve_route", errno));
    }
    channel.Expect(id, RDMA_CM_EVENT_ROUTE_RESOLVED, timeout_ms + 1000, peer.ToString());
  } catch (...) {
    rdma_destroy_id(id);
    throw;
  }
  return id;
}

CmConnection Connect(CmEventChannel& channel, rdma_cm_id* id, ibv_pd* protection_domain, ibv_cq* cq,
                     const QueuePairCaps& caps, const std::string& peer, int timeout_ms) {
  ibv_qp_init_attr attributes{};
  attributes.send_cq = cq;
  attributes.recv_cq = cq;
  attributes.qp_type = IBV_QPT_RC;
  attributes.cap.max_send_wr = caps.send_queue_depth;
  attributes.cap.max_recv_wr = 1;
  attributes.cap.max_send_sge = 1;
  attributes.cap.max_recv_sge = 1;
  attributes.cap.max_inline_data = caps.inline_bytes;
  if (rdma_create_qp(id, protection_domain, &attributes) != 0) {
    // Some devices refuse any inline data; small WRITEs then use the DMA path.
    attributes.cap.max_inline_data = 0;
    if (rdma_create_qp(id, protection_domain, &attributes) != 0) {
      throw VerbError(ErrnoText("memory server " + peer + ": rdma_create_qp", errno));
    }
  }
  CmConnection connection;
  connection.id = id;
  connection.inline_bytes = attributes.cap.max_inline_data;
  ibv_device_attr device{};
  if (ibv_query_device(id->verbs, &device) != 0) {
    throw VerbError(ErrnoText("ibv_query_device", errno));
  }
  rdma_conn_param parameters{};
  // As many outstanding READs and atomics as the device allows (the index
  // posts them in batches and from several coroutines at once).
  parameters.initiator_depth = static_cast<uint8_t>(std::min(device.max_qp_init_rd_atom, 16));
  parameters.responder_resources = static_cast<uint8_t>(std::min(device.max_qp_rd_atom, 16));
  parameters.retry_count = 7;
  parameters.rnr_retry_count = 7;
  if (rdma_connect(id, &parameters) != 0) {
    throw VerbError(ErrnoText("memory server " + peer + ": rdma_connect", errno));
  }
  channel.Expect(id, RDMA_CM_EVENT_ESTABLISHED, timeout_ms, peer, &connection.server);
  return connection;
}

}  // namespace dmbench::rdma::verbs
