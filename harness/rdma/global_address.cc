#include "harness/rdma/global_address.h"

#include <cstdio>

namespace dmbench::rdma {

std::string GlobalAddress::ToString() const {
  char text[64];
  std::snprintf(text, sizeof(text), "%s[%u]+0x%llx",
                space == MemorySpace::kHost ? "host" : "onchip", server,
                static_cast<unsigned long long>(offset));
  return text;
}

}  // namespace dmbench::rdma
