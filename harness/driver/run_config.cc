#include "harness/driver/run_config.h"

#include "harness/driver/run_feasibility.h"
#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"
#include "indexes/index_presets.h"

namespace dmbench::driver {

namespace {

nlohmann::json IndexToJson(const std::string& engine, const std::string& preset,
                           const indexes::TreeOptions& options, double fill_factor) {
  return {{"engine", engine},
          {"preset", preset},
          {"consistency", indexes::ConsistencyName(options.consistency)},
          {"combine", options.combine},
          {"onchip", options.on_chip},
          {"lock_placement", indexes::LockPlacementName(options.lock_placement)},
          {"hierarchical", options.hierarchical},
          {"handover", options.handover},
          {"masked_locks", options.masked_locks},
          {"faa_release", options.faa_release},
          {"wrap_window_us", options.wrap_window_us},
          {"key_bytes", options.key_bytes},
          {"value_bytes", options.value_bytes},
          {"node_bytes", options.node_bytes},
          {"cache_mib", options.cache_bytes >> 20},
          {"fill_factor", fill_factor}};
}

nlohmann::json TopologyToJson(const rdma::Topology& topology) {
  return {{"memory_servers", topology.memory_servers},
          {"compute_servers", topology.compute_servers},
          {"threads_per_compute_server", topology.threads_per_compute_server},
          {"coroutines_per_thread", topology.coroutines_per_thread},
          {"colocated", topology.colocated},
          {"host_memory_mib", topology.host_memory_mib},
          {"chunk_mib", topology.chunk_mib}};
}

void ReadVerbsOptions(JsonObjectReader& backend, rdma::verbs::VerbsOptions& verbs) {
  if (backend.Has("memory_servers")) {
    const nlohmann::json& list = backend.Raw("memory_servers");
    if (!list.is_array() || list.empty()) {
      throw ConfigError(backend.FieldPath("memory_servers") +
                        ": a non-empty list of \"host:port\" strings, one per memory server");
    }
    verbs.memory_servers.clear();
    for (const nlohmann::json& entry : list) {
      if (!entry.is_string()) {
        throw ConfigError(backend.FieldPath("memory_servers") +
                          ": entries are \"host:port\" strings");
      }
      verbs.memory_servers.push_back(entry.get<std::string>());
    }
  }
  verbs.compute_server =
      static_cast<uint32_t>(backend.Unsigned("compute_server", verbs.compute_server, 0, 65534));
  verbs.device = backend.String("device", verbs.device);
  verbs.ib_port = static_cast<uint32_t>(backend.Unsigned("ib_port", verbs.ib_port, 0, 255));
  verbs.gid_index = static_cast<int32_t>(backend.Number("gid_index", verbs.gid_index, -1, 255));
  verbs.connect_timeout_ms = static_cast<uint32_t>(
      backend.Unsigned("connect_timeout_ms", verbs.connect_timeout_ms, 1, 3600000));
  verbs.completion_timeout_ms = static_cast<uint32_t>(
      backend.Unsigned("completion_timeout_ms", verbs.completion_timeout_ms, 1, 3600000));
  verbs.barrier_timeout_ms = static_cast<uint32_t>(
      backend.Unsigned("barrier_timeout_ms", verbs.barrier_timeout_ms, 1, 86400000));
}

nlohmann::json VerbsOptionsToJson(const rdma::verbs::VerbsOptions& verbs) {
  nlohmann::json json = {{"type", "verbs"},
                         {"memory_servers", verbs.memory_servers},
                         {"compute_server", verbs.compute_server},
                         {"ib_port", verbs.ib_port},
                         {"gid_index", verbs.gid_index},
                         {"connect_timeout_ms", verbs.connect_timeout_ms},
                         {"completion_timeout_ms", verbs.completion_timeout_ms},
                         {"barrier_timeout_ms", verbs.barrier_timeout_ms}};
  if (!verbs.device.empty()) json["device"] = verbs.device;  // empty: chosen by the route
  return json;
}

}  // namespace

RunConfig RunConfig::FromJson(const nlohmann::json& document) {
  RunConfig config;
  JsonObjectReader root(document, "");
  config.name = root.String("name", config.name);
  root.String("description", "");
  if (root.Has("index")) {
    JsonObjectReader index = root.Object("index");
    config.index_engine = index.Choice("engine", config.index_engine, indexes::IndexEngineNames());
    // The preset first, so that the fields present edit it. `type` is the
    // preset's name before engines were told apart: still read, never written.
    const std::vector<std::string> presets = indexes::IndexPresetNames(config.index_engine);
    if (index.Has("type") && index.Has("preset")) {
      throw ConfigError(index.FieldPath("type") +
                        ": the old name of index.preset; give one of them, not both");
    }
    const std::string preset_key = index.Has("type") ? "type" : "preset";
    config.index_preset = index.Choice(preset_key, config.index_preset, presets);
    config.index = indexes::FindIndexPreset(config.index_preset).blink_options();
    config.index.ReadJson(index);
    config.fill_factor = index.Number("fill_factor", config.fill_factor, 0.05, 1.0);
    index.RejectUnknownKeys();
  }
  if (root.Has("topology")) {
    JsonObjectReader topology = root.Object("topology");
    config.topology = rdma::Topology::FromJson(topology);
  }
  if (root.Has("backend")) {
    JsonObjectReader backend = root.Object("backend");
    config.backend.type = backend.Choice("type", config.backend.type, {"sim", "verbs"});
    if (config.backend.type == "sim") {
      config.backend.nic = backend.String("nic", config.backend.nic);
      config.backend.dma_read_order =
          backend.Choice("dma_read_order", "", {"", "ascending", "descending", "random"});
      if (backend.Has("nic_overrides")) {
        config.backend.nic_overrides = backend.Raw("nic_overrides");
        if (!config.backend.nic_overrides.is_object()) {
          throw ConfigError(backend.FieldPath("nic_overrides") +
                            ": must be a JSON object of NIC-profile parameters and values, got " +
                            Printable(config.backend.nic_overrides.dump(), 57));
        }
      }
    } else {
      ReadVerbsOptions(backend, config.backend.verbs);
    }
    backend.RejectUnknownKeys();
  }
  if (root.Has("workload")) {
    JsonObjectReader workload = root.Object("workload");
    config.workload.ReadJson(workload);
  }
  if (root.Has("run")) {
    JsonObjectReader run = root.Object("run");
    config.warmup_ms = run.Number("warmup_ms", config.warmup_ms, 0, 1e6);
    config.measure_ms = run.Number("measure_ms", config.measure_ms, 1e-3, 1e6);
    config.seed = run.Unsigned("seed", config.seed, 0, UINT64_MAX);
    config.verify = run.Bool("verify", config.verify);
    run.RejectUnknownKeys();
  }
  root.RejectUnknownKeys();
  if (config.backend.type == "verbs" && config.index.masked_locks) {
    throw ConfigError(
        "index.masked_locks: needs masked compare-and-swap, which upstream rdma-core does not "
        "have, so backend.type verbs cannot run it (set index.masked_locks to false)");
  }
  return config;
}

nlohmann::json RunConfig::ToJson() const {
  nlohmann::json backend_json = {{"type", backend.type}, {"nic", backend.nic}};
  if (!backend.dma_read_order.empty()) backend_json["dma_read_order"] = backend.dma_read_order;
  if (!backend.nic_overrides.empty()) backend_json["nic_overrides"] = backend.nic_overrides;
  if (backend.type == "verbs") backend_json = VerbsOptionsToJson(backend.verbs);
  return {
      {"name", name},
      {"index", IndexToJson(index_engine, index_preset, index, fill_factor)},
      {"topology", TopologyToJson(topology)},
      {"backend", backend_json},
      {"workload", workload.ToJson()},
      {"run",
       {{"warmup_ms", warmup_ms}, {"measure_ms", measure_ms}, {"seed", seed}, {"verify", verify}}}};
}

nlohmann::json SetPath(nlohmann::json document, const std::string& path, nlohmann::json value) {
  nlohmann::json* node = &document;
  size_t start = 0;
  for (;;) {
    const size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot - start);
    if (key.empty()) throw ConfigError(Printable(path, 120) + ": empty field name in the path");
    if (!node->is_object()) {
      throw ConfigError(
          Printable(path, 120) + ": " +
          (start == 0 ? std::string("the document") : Printable(path.substr(0, start - 1), 120)) +
          " is not an object");
    }
    if (dot == std::string::npos) {
      (*node)[key] = std::move(value);
      return document;
    }
    node = &(*node)[key];
    if (node->is_null()) *node = nlohmann::json::object();
    start = dot + 1;
  }
}

nlohmann::json ApplySet(nlohmann::json document, const std::string& assignment) {
  const size_t equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw ConfigError("--set " + Printable(assignment, 120) +
                      ": expected path=value, e.g. index.combine=false");
  }
  const std::string path = assignment.substr(0, equals);
  const std::string text = assignment.substr(equals + 1);
  nlohmann::json value;
  try {
    value = ParseJson(text, "--set " + path);
  } catch (const ConfigError&) {
    value = text;  // not JSON: a bare word, a string ("fgplus")
  }
  try {
    value.dump();
  } catch (const nlohmann::json::type_error&) {
    throw ConfigError("--set " + Printable(path, 120) + ": the value " + Printable(text) +
                      " is not valid UTF-8 text");
  }
  try {
    return SetPath(std::move(document), path, std::move(value));
  } catch (const ConfigError& error) {
    throw ConfigError(std::string("--set ") + error.what());
  }
}

RunConfig LoadRunConfig(const std::string& file, const std::vector<std::string>& sets) {
  return LoadRunConfig(ReadJsonFile(file), file, sets);
}

RunConfig LoadRunConfig(nlohmann::json document, const std::string& file,
                        const std::vector<std::string>& sets) {
  for (const std::string& assignment : sets) document = ApplySet(std::move(document), assignment);
  try {
    RunConfig config = RunConfig::FromJson(document);
    CheckRunCanProgress(config);
    return config;
  } catch (const ConfigError& error) {
    throw ConfigError(file + ": " + error.what());
  }
}

}  // namespace dmbench::driver
