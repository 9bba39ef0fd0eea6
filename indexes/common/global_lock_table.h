// Where the lock of a node is and how it is taken. With the table placement
// (Sherman, paper §4.3, Fig. 6), node locks live apart from the nodes in the
// global lock table of the node's memory server, chosen by a hash of the
// node's address; with the node placement (FG, FG+), the lock is the first
// word of the node's header. A lock is acquired by CAS from 0 to the owner's
// tag and released by a WRITE of 0 (FG+'s improvement over FG's FAA).
// Either 64-bit locks (32768 per table) or 16-bit locks taken with masked
// CAS (131072 per table, sim only; in a node, the word's low 16 bits).
#pragma once

#include <cstdint>
#include <stdexcept>

#include "harness/rdma/client.h"
#include "indexes/common/lock_options.h"

namespace dmbench::indexes {

// A lock that no wait could get: see LockOptions::wait_limit_ns.
class LockLostError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class GlobalLockTable {
 public:
  // Reads placement, on_chip, masked and faa_release.
  explicit GlobalLockTable(const LockOptions& options);

  struct Lock {
    uint64_t id;                  // unique over the cluster: server and slot, or the node
    rdma::GlobalAddress word;     // the 64-bit word the CAS targets
    uint32_t field;               // 16-bit locks: which field of the word
    rdma::GlobalAddress release;  // the bytes a release zeroes
    uint32_t release_bytes;
  };
  Lock For(rdma::GlobalAddress node) const;

  // CAS until the lock is ours; returns how many CAS failed. Throws
  // LockLostError when the lock stays taken for LockOptions::wait_limit_ns.
  uint32_t Acquire(rdma::Client& client, const Lock& lock) const;
  // The verb that releases `lock` held by `client`, for the caller to post
  // (alone or batched): a WRITE of zero, or FG's FAA of minus the tag.
  rdma::WorkRequest ReleaseRequest(const Lock& lock, const rdma::Client& client) const;

  uint64_t locks_per_server() const { return locks_per_server_; }

 private:
  [[noreturn]] void ThrowLockLost(const rdma::Client& client, const Lock& lock, uint64_t holder,
                                  uint32_t failures, uint64_t waited_ns) const;

  bool on_chip_;
  bool in_node_;
  bool masked_;
  bool faa_release_;
  uint64_t wait_limit_ns_;
  uint64_t locks_per_server_;
};

}  // namespace dmbench::indexes
