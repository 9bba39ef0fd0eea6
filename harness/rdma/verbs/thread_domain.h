// A client thread's own doorbell on a real NIC (SMART's thread-aware
// resource allocation, substrate.per_thread_doorbells), through upstream
// rdma-core only: a thread domain (ibv_alloc_td) and a parent domain
// (ibv_alloc_parent_domain) over the device's protection domain, which the
// thread's queue pairs are created on.
//
// Why this gives a doorbell of its own: rdma-core's mlx5 provider gives each
// thread domain a dedicated UAR (mlx5_alloc_td: mlx5_attach_dedicated_uar),
// a QP created on a parent domain with a thread domain rings that UAR
// (mlx5_create_qp: mparent_domain->mtd->bf) instead of one of the shared
// bfregs that mlx5_get_qp_uar hands out round-robin, and a parent domain
// with a thread domain makes the QP's locks single-threaded
// (mlx5_spinlock_init_pd): no spinlock on the post path. Memory regions of
// the protection domain serve the parent domain's QPs as they are.
//
// Providers without thread domains (rxe, siw) refuse with EOPNOTSUPP: the
// thread's QPs then stay on the protection domain, and the refusal is kept
// for the result's fallbacks.
//
// Ownership: the thread owns its domain, which must outlive every QP created
// on it; not thread-safe (set-up path only).
#pragma once

#include <infiniband/verbs.h>

#include <memory>
#include <string>

namespace dmbench::rdma::verbs {

class ThreadDomain {
 public:
  // A domain over `protection_domain`'s device, or null with *refusal saying
  // why the device cannot give one (the failing call and its errno).
  static std::unique_ptr<ThreadDomain> Open(ibv_context* context, ibv_pd* protection_domain,
                                            std::string* refusal);
  ~ThreadDomain();
  ThreadDomain(const ThreadDomain&) = delete;
  ThreadDomain& operator=(const ThreadDomain&) = delete;

  // Where the thread's QPs are created.
  ibv_pd* parent_domain() const { return parent_domain_; }

 private:
  ThreadDomain(ibv_td* thread_domain, ibv_pd* parent_domain)
      : thread_domain_(thread_domain), parent_domain_(parent_domain) {}

  ibv_td* thread_domain_;
  ibv_pd* parent_domain_;
};

}  // namespace dmbench::rdma::verbs
