#include "harness/rdma/verbs/thread_domain.h"

#include <cerrno>

#include "harness/rdma/verbs/rdma_device.h"

namespace dmbench::rdma::verbs {

std::unique_ptr<ThreadDomain> ThreadDomain::Open(ibv_context* context, ibv_pd* protection_domain,
                                                 std::string* refusal) {
  ibv_td_init_attr td_attributes{};
  ibv_td* thread_domain = ibv_alloc_td(context, &td_attributes);
  if (thread_domain == nullptr) {
    *refusal = ErrnoText("ibv_alloc_td", errno);
    return nullptr;
  }
  ibv_parent_domain_init_attr attributes{};
  attributes.pd = protection_domain;
  attributes.td = thread_domain;
  ibv_pd* parent_domain = ibv_alloc_parent_domain(context, &attributes);
  if (parent_domain == nullptr) {
    *refusal = ErrnoText("ibv_alloc_parent_domain", errno);
    ibv_dealloc_td(thread_domain);
    return nullptr;
  }
  return std::unique_ptr<ThreadDomain>(new ThreadDomain(thread_domain, parent_domain));
}

ThreadDomain::~ThreadDomain() {
  ibv_dealloc_pd(parent_domain_);
  ibv_dealloc_td(thread_domain_);
}

}  // namespace dmbench::rdma::verbs
