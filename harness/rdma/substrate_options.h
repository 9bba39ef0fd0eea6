// The substrate's own scale-up techniques (SMART, ASPLOS'24 §4): run-time
// toggles below the index API, so that every index gets them without a line
// of its own. Each defaults to off, which is the substrate without it.
//
// Thread safety: read-only after the config is loaded.
#pragma once

#include <nlohmann/json.hpp>

#include "harness/util/config_forward.h"

namespace dmbench::rdma {

struct SubstrateOptions {
  // Thread-aware resource allocation (SMART §4.1): every client thread's QPs
  // ring a doorbell register of their own, so that no two threads meet on a
  // doorbell's lock. Off: QPs take the driver's doorbells as rdma-core's
  // mlx5 provider hands them out (a few dedicated, the rest shared).
  bool per_thread_doorbells = false;

  // The config fields of the substrate section.
  static const ConfigFields<SubstrateOptions>& Fields();
  static SubstrateOptions FromJson(JsonObjectReader& reader);
  nlohmann::json ToJson() const;
};

}  // namespace dmbench::rdma
