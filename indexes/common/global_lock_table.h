// The global lock table of each memory server (paper §4.3, Fig. 6): node
// locks live apart from the nodes, on the node's memory server, chosen by a
// hash of the node's address. A lock is acquired by CAS from 0 to the owner's
// tag and released by a WRITE of 0 (FG+'s improvement over FG's FAA).
// Either 64-bit locks (32768 per server) or 16-bit locks taken with masked
// CAS (131072 per server, sim only).
#pragma once

#include <cstdint>

#include "harness/rdma/client.h"

namespace dmbench::indexes {

class GlobalLockTable {
 public:
  GlobalLockTable(bool on_chip, bool masked, bool faa_release = false);

  struct Lock {
    uint64_t id;                  // unique over the cluster: server and slot
    rdma::GlobalAddress word;     // the 64-bit word the CAS targets
    uint32_t field;               // 16-bit locks: which field of the word
    rdma::GlobalAddress release;  // the bytes a release zeroes
    uint32_t release_bytes;
  };
  Lock For(rdma::GlobalAddress node) const;

  // CAS until the lock is ours; returns how many CAS failed.
  uint32_t Acquire(rdma::Client& client, const Lock& lock) const;
  // The verb that releases `lock` held by `client`, for the caller to post
  // (alone or batched): a WRITE of zero, or FG's FAA of minus the tag.
  rdma::WorkRequest ReleaseRequest(const Lock& lock, const rdma::Client& client) const;

  uint64_t locks_per_server() const { return locks_per_server_; }

 private:
  bool on_chip_;
  bool masked_;
  bool faa_release_;
  uint64_t locks_per_server_;
};

}  // namespace dmbench::indexes
