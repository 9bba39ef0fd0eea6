#include "harness/rdma/substrate_options.h"

#include "harness/util/config_fields.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::rdma {

const ConfigFields<SubstrateOptions>& SubstrateOptions::Fields() {
  static const ConfigFields<SubstrateOptions> fields = [] {
    ConfigFields<SubstrateOptions> list;
    list.Bool("per_thread_doorbells", &SubstrateOptions::per_thread_doorbells,
              "thread-aware resource allocation (SMART §4.1): each client thread rings a "
              "doorbell register of its own instead of sharing the driver's (sim backend)");
    return list;
  }();
  return fields;
}

SubstrateOptions SubstrateOptions::FromJson(JsonObjectReader& reader) {
  SubstrateOptions options;
  Fields().Read(reader, options);
  reader.RejectUnknownKeys();
  return options;
}

nlohmann::json SubstrateOptions::ToJson() const { return Fields().Write(*this); }

}  // namespace dmbench::rdma
