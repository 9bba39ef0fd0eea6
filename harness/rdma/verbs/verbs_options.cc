#include "harness/rdma/verbs/verbs_options.h"

#include "harness/rdma/errors.h"
#include "harness/util/config_fields.h"

namespace dmbench::rdma::verbs {

const ConfigFields<VerbsOptions>& VerbsOptions::Fields() {
  static const ConfigFields<VerbsOptions> fields = [] {
    using V = VerbsOptions;
    ConfigFields<VerbsOptions> list;
    list.Custom(
            "memory_servers", "non-empty list of \"host:port\"",
            "each memory server's `dmbench serve`, memory server i the i-th",
            [](JsonObjectReader& reader, V& options) {
              if (!reader.Has("memory_servers")) return;
              const nlohmann::json& entries = reader.Raw("memory_servers");
              const std::string path = reader.FieldPath("memory_servers");
              if (!entries.is_array() || entries.empty()) {
                throw ConfigError(path +
                                  ": a non-empty list of \"host:port\" strings, one per memory "
                                  "server");
              }
              options.memory_servers.clear();
              for (const nlohmann::json& entry : entries) {
                if (!entry.is_string()) {
                  throw ConfigError(path + ": entries are \"host:port\" strings");
                }
                options.memory_servers.push_back(entry.get<std::string>());
              }
            },
            [](const V& options) {
              return options.memory_servers.empty() ? nlohmann::json()
                                                    : nlohmann::json(options.memory_servers);
            })
        .Unsigned("compute_server", &V::compute_server, 0, 65534,
                  "this process's compute server, in [0, topology.compute_servers)")
        .Custom(
            "device", "text", "RDMA device by name; absent: the one the route goes through",
            [](JsonObjectReader& reader, V& options) {
              options.device = reader.String("device", options.device);
            },
            [](const V& options) {
              return options.device.empty() ? nlohmann::json() : nlohmann::json(options.device);
            })
        .Unsigned("ib_port", &V::ib_port, 0, 255, "device port; 0: the one the route uses")
        .Custom(
            "gid_index", "integer in [-1, 255]", "local GID; -1: the one rdma_cm picks",
            [](JsonObjectReader& reader, V& options) {
              options.gid_index =
                  static_cast<int32_t>(reader.Number("gid_index", options.gid_index, -1, 255));
            },
            [](const V& options) { return nlohmann::json(options.gid_index); })
        .Unsigned("connect_timeout_ms", &V::connect_timeout_ms, 1, 3600000,
                  "connection set-up limit")
        .Unsigned("completion_timeout_ms", &V::completion_timeout_ms, 1, 3600000,
                  "a work request not completed by then fails the run")
        .Unsigned("barrier_timeout_ms", &V::barrier_timeout_ms, 1, 86400000,
                  "how long a compute server waits for the others at a barrier");
    return list;
  }();
  return fields;
}

}  // namespace dmbench::rdma::verbs
