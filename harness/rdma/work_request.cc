#include "harness/rdma/work_request.h"

namespace dmbench::rdma {

const char* VerbName(Verb verb) {
  switch (verb) {
    case Verb::kRead:
      return "READ";
    case Verb::kWrite:
      return "WRITE";
    case Verb::kCompareAndSwap:
      return "CAS";
    case Verb::kMaskedCompareAndSwap:
      return "masked CAS";
    case Verb::kFetchAndAdd:
      return "FAA";
  }
  return "unknown verb";
}

uint64_t AtomicResult(const WorkRequest& request, uint64_t old_value) {
  if (request.verb == Verb::kFetchAndAdd) return old_value + request.compare_or_add;
  const uint64_t mask = request.EffectiveMask();
  if (((old_value ^ request.compare_or_add) & mask) != 0) return old_value;
  return (old_value & ~mask) | (request.swap & mask);
}

}  // namespace dmbench::rdma
