// The substrate's own scale-up techniques (SMART, ASPLOS'24 §4): run-time
// toggles below the index API, so that every index gets them without a line
// of its own beyond saying where it retries. Each defaults to off, which is
// the substrate without it.
//
// Thread safety: read-only after the config is loaded.
#pragma once

#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "harness/util/config_forward.h"

namespace dmbench::rdma {

// How many work requests a client thread may have outstanding (SMART §4.2).
enum class WorkRequestThrottling : uint8_t {
  kOff,
  kFixed,     // at most work_request_credits
  kAdaptive,  // Algorithm 1: the best of {4, 6, 8, 10, 12, unlimited}, re-chosen periodically
};

struct SubstrateOptions {
  // Thread-aware resource allocation (SMART §4.1): every client thread's QPs
  // ring a doorbell register of their own, so that no two threads meet on a
  // doorbell's lock. Off: QPs take the driver's doorbells as rdma-core's
  // mlx5 provider hands them out (a few dedicated, the rest shared).
  bool per_thread_doorbells = false;

  // Work-request throttling (SMART §4.2): credits per client thread.
  WorkRequestThrottling work_request_throttling = WorkRequestThrottling::kOff;
  uint32_t work_request_credits = 8;      // kFixed
  double throttle_sample_us = 8000;       // kAdaptive: each candidate's sample (SMART: 8 ms)
  uint32_t throttle_stable_samples = 60;  // kAdaptive: samples between trainings (SMART: 60)

  // Conflict avoidance (SMART §4.3): after a failed CAS a client waits a
  // truncated exponential backoff, whose limit follows the retry rate.
  bool cas_backoff = false;
  // With cas_backoff: the retry rate also limits how many of a thread's
  // coroutines run operations at once, before the backoff limit moves.
  bool coroutine_throttling = false;
  double backoff_unit_ns = 1707;   // t0: SMART's 4096 cycles at its 2.4 GHz
  double backoff_epoch_us = 1000;  // how often the retry rate is judged (SMART §4.3: 1 ms)

  // Throws ConfigError naming the field, for rules across fields.
  void Validate() const;
  // The config fields of the substrate section.
  static const ConfigFields<SubstrateOptions>& Fields();
  static SubstrateOptions FromJson(JsonObjectReader& reader);
  // Reads the fields present over *this (an index preset's techniques),
  // rejecting unknown ones, and validates the result.
  void ReadJson(JsonObjectReader& reader);
  nlohmann::json ToJson() const;
  // Whether any technique a backend must implement per thread is on.
  bool AnyThreadTechnique() const {
    return work_request_throttling != WorkRequestThrottling::kOff || cas_backoff;
  }
};

}  // namespace dmbench::rdma
