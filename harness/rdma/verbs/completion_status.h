// Words for a failed work completion: which verb, to which memory server,
// and the status by its rdma-core name, so a user can look it up.
#pragma once

#include <infiniband/verbs.h>

#include <string>

#include "harness/rdma/work_request.h"

namespace dmbench::rdma::verbs {

// "IBV_WC_REM_ACCESS_ERR"; "status N" for a status this build does not know.
std::string CompletionStatusName(ibv_wc_status status);

// "RDMA READ to memory server 1 (10.0.0.1:7471) failed: remote access error
// (IBV_WC_REM_ACCESS_ERR, vendor error 0x88)".
std::string DescribeFailedCompletion(Verb verb, const std::string& server,
                                     const ibv_wc& completion);

// "RTS", "ERR", ...: the queue pair's state as the device reports it, for an
// error about requests that never completed (a queue pair in ERR was torn
// down; one in RTS still waits on the responder or the network).
std::string QueuePairStateName(ibv_qp* queue_pair);

}  // namespace dmbench::rdma::verbs
