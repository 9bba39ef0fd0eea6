#include "harness/rdma/substrate_options.h"

#include "harness/rdma/errors.h"
#include "harness/util/config_fields.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::rdma {

void SubstrateOptions::Validate() const {
  if (coroutine_throttling && !cas_backoff) {
    throw ConfigError(
        "substrate.coroutine_throttling: follows the retry rate that cas_backoff measures, so it "
        "needs substrate.cas_backoff true");
  }
}

const ConfigFields<SubstrateOptions>& SubstrateOptions::Fields() {
  static const ConfigFields<SubstrateOptions> fields = [] {
    using S = SubstrateOptions;
    ConfigFields<SubstrateOptions> list;
    list.Bool(
            "per_thread_doorbells", &S::per_thread_doorbells,
            "thread-aware resource allocation (SMART §4.1): each client thread rings a "
            "doorbell register of its own instead of sharing the driver's (verbs: a thread domain "
            "each; a device without them is a recorded fallback)")
        .Choice("work_request_throttling", &S::work_request_throttling,
                {{"off", WorkRequestThrottling::kOff},
                 {"fixed", WorkRequestThrottling::kFixed},
                 {"adaptive", WorkRequestThrottling::kAdaptive}},
                "work-request throttling (SMART §4.2): a client thread posts only while it has "
                "credits for every work request it has outstanding; fixed: "
                "work_request_credits of them; adaptive: SMART's Algorithm 1, which samples "
                "{4, 6, 8, 10, 12, unlimited} and keeps the one that completes the most")
        .Unsigned("work_request_credits", &S::work_request_credits, 1, 4096,
                  "credits per client thread with work_request_throttling fixed")
        .Number("throttle_sample_us", &S::throttle_sample_us, 1, 1e7,
                "adaptive throttling: how long each candidate is sampled, us (SMART: 8000)")
        .Unsigned("throttle_stable_samples", &S::throttle_stable_samples, 1, 1000000,
                  "adaptive throttling: samples the chosen credit is kept before the next "
                  "training (SMART: 60)")
        .Bool("cas_backoff", &S::cas_backoff,
              "conflict avoidance (SMART §4.3): after a failed CAS a client waits min(t0 2^i, "
              "t_max) + rand(t0); t_max doubles while over half of the attempts retry and "
              "halves while under a tenth do, within [t0, 2^10 t0]")
        .Bool("coroutine_throttling", &S::coroutine_throttling,
              "with cas_backoff: the retry rate first halves or doubles how many of a thread's "
              "coroutines may run an operation at once (1..64), and moves t_max only at a bound")
        .Number("backoff_unit_ns", &S::backoff_unit_ns, 1, 1e9,
                "t0, the backoff unit, ns (SMART: 4096 cycles, 1707 ns at its 2.4 GHz)")
        .Number("backoff_epoch_us", &S::backoff_epoch_us, 1, 1e7,
                "how often the retry rate is judged, us (SMART §4.3: every millisecond)");
    return list;
  }();
  return fields;
}

SubstrateOptions SubstrateOptions::FromJson(JsonObjectReader& reader) {
  SubstrateOptions options;
  options.ReadJson(reader);
  return options;
}

void SubstrateOptions::ReadJson(JsonObjectReader& reader) {
  Fields().Read(reader, *this);
  reader.RejectUnknownKeys();
  Validate();
}

nlohmann::json SubstrateOptions::ToJson() const { return Fields().Write(*this); }

}  // namespace dmbench::rdma
