// One verb of a batch, as index code describes it to the substrate.
#pragma once

#include <cstdint>

#include "harness/rdma/global_address.h"

namespace dmbench::rdma {

enum class Verb : uint8_t { kRead, kWrite, kCompareAndSwap, kMaskedCompareAndSwap, kFetchAndAdd };

const char* VerbName(Verb verb);
inline bool IsAtomic(Verb verb) { return verb >= Verb::kCompareAndSwap; }

struct WorkRequest {
  Verb verb = Verb::kRead;
  GlobalAddress remote;
  // READ: destination; WRITE: source. Unused by atomics.
  void* local = nullptr;
  uint32_t length = 0;
  // CAS: expected value; FAA: addend.
  uint64_t compare_or_add = 0;
  // CAS: desired value.
  uint64_t swap = 0;
  // Masked CAS: the bits compared and swapped, whole 16-bit fields only.
  uint64_t mask = 0;
  // Atomics: the word's value before the verb (on success and on failure).
  uint64_t old_value = 0;

  // For CAS and masked CAS, after execution.
  bool Succeeded() const { return ((old_value ^ compare_or_add) & EffectiveMask()) == 0; }
  uint64_t EffectiveMask() const {
    return verb == Verb::kMaskedCompareAndSwap ? mask : ~uint64_t{0};
  }
};

// The memory effect of an atomic: the value it leaves in the word, given the
// word's old value. One definition for every backend that emulates atomics.
uint64_t AtomicResult(const WorkRequest& request, uint64_t old_value);

}  // namespace dmbench::rdma
