#include "harness/driver/run_config.h"

#include "harness/driver/run_feasibility.h"
#include "harness/rdma/errors.h"
#include "harness/util/config_fields.h"
#include "harness/util/json_object_reader.h"
#include "indexes/index_presets.h"

namespace dmbench::driver {

namespace {

// "sherman, fgplus (blink)": every preset with its engine.
std::string PresetList() {
  std::string text;
  for (const std::string& engine : indexes::IndexEngineNames()) {
    text += (text.empty() ? "" : "; ") + CommaJoined(indexes::IndexPresetNames(engine)) + " (" +
            engine + ")";
  }
  return text;
}

}  // namespace

const ConfigFields<RunConfig>& RunConfig::IndexFields() {
  static const ConfigFields<RunConfig> fields = [] {
    ConfigFields<RunConfig> list;
    list.Custom(
            "engine", "one of {" + CommaJoined(indexes::IndexEngineNames()) + "}",
            "the index engine; blink is the B-link tree engine FG+ and Sherman run on",
            [](JsonObjectReader& reader, RunConfig& config) {
              config.index_engine =
                  reader.Choice("engine", config.index_engine, indexes::IndexEngineNames());
            },
            [](const RunConfig& config) { return nlohmann::json(config.index_engine); })
        .Custom(
            "preset", "a preset of the engine: " + PresetList(),
            "the setup the other index fields edit (`type` is its old name, still read)",
            // The preset first, so that the fields present edit it.
            [](JsonObjectReader& reader, RunConfig& config) {
              if (reader.Has("type") && reader.Has("preset")) {
                throw ConfigError(reader.FieldPath("type") +
                                  ": the old name of index.preset; give one of them, not both");
              }
              const std::string key = reader.Has("type") ? "type" : "preset";
              config.index_preset = reader.Choice(key, config.index_preset,
                                                  indexes::IndexPresetNames(config.index_engine));
              const indexes::IndexPreset& preset = indexes::FindIndexPreset(config.index_preset);
              config.index = preset.blink_options();
              config.substrate = preset.Substrate();
            },
            [](const RunConfig& config) { return nlohmann::json(config.index_preset); })
        .Number("fill_factor", &RunConfig::fill_factor, 0.05, 1.0, "bulkload leaf fill");
    return list;
  }();
  return fields;
}

const ConfigFields<RunConfig>& RunConfig::RunFields() {
  static const ConfigFields<RunConfig> fields = [] {
    ConfigFields<RunConfig> list;
    list.Number("warmup_ms", &RunConfig::warmup_ms, 0, 1e6,
                "warm-up before the measured window, ms (simulated on the sim)")
        .Number("measure_ms", &RunConfig::measure_ms, 1e-3, 1e6,
                "measured window, ms (simulated on the sim)")
        .Unsigned("seed", &RunConfig::seed, 0, UINT64_MAX,
                  "random seed: the same config and seed give the same result")
        .Bool("verify", &RunConfig::verify, "run the consistency checker over every operation")
        .Number("target_mops", &RunConfig::target_mops, 0, 1e6,
                "offered load of the cluster, Mops, as Poisson arrivals per client (open loop: "
                "latency also from each operation's intended start); 0: closed loop");
    return list;
  }();
  return fields;
}

const ConfigFields<BackendConfig>& BackendConfig::SimFields() {
  static const ConfigFields<BackendConfig> fields = [] {
    ConfigFields<BackendConfig> list;
    list.String("nic", &BackendConfig::nic, "NIC profile: a name under configs/nic/ or a file")
        .Custom(
            "dma_read_order", "one of {ascending, descending, random}",
            "overrides the profile's DMA read order; absent: the profile's",
            [](JsonObjectReader& reader, BackendConfig& backend) {
              backend.dma_read_order = reader.Choice("dma_read_order", backend.dma_read_order,
                                                     {"", "ascending", "descending", "random"});
            },
            [](const BackendConfig& backend) {
              return backend.dma_read_order.empty() ? nlohmann::json()
                                                    : nlohmann::json(backend.dma_read_order);
            })
        .Custom(
            "nic_overrides", "object of profile parameters and values",
            "values over the profile's, each checked as in a profile file "
            "({\"processing_units\": 0} switches a mechanism off)",
            [](JsonObjectReader& reader, BackendConfig& backend) {
              if (!reader.Has("nic_overrides")) return;
              backend.nic_overrides = reader.Raw("nic_overrides");
              if (!backend.nic_overrides.is_object()) {
                throw ConfigError(reader.FieldPath("nic_overrides") +
                                  ": must be a JSON object of NIC-profile parameters and "
                                  "values, got " +
                                  Printable(backend.nic_overrides.dump(), 57));
              }
            },
            [](const BackendConfig& backend) {
              return backend.nic_overrides.empty() ? nlohmann::json() : backend.nic_overrides;
            })
        .Bool("deferred_bulkload", &BackendConfig::deferred_bulkload,
              "memory servers build each bulkloaded node when a verb first touches it, taking "
              "no simulated time and no memory until then (false: every node is written "
              "before the run, in simulated time, as real backends do)");
    return list;
  }();
  return fields;
}

RunConfig RunConfig::FromJson(const nlohmann::json& document) {
  RunConfig config;
  JsonObjectReader root(document, "");
  config.name = root.String("name", config.name);
  root.String("description", "");
  if (root.Has("index")) {
    JsonObjectReader index = root.Object("index");
    IndexFields().Read(index, config);
    config.index.ReadJson(index);
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
      BackendConfig::SimFields().Read(backend, config.backend);
    } else {
      rdma::verbs::VerbsOptions::Fields().Read(backend, config.backend.verbs);
    }
    backend.RejectUnknownKeys();
  }
  if (root.Has("substrate")) {
    JsonObjectReader substrate = root.Object("substrate");
    config.substrate.ReadJson(substrate);
  }
  if (root.Has("workload")) {
    JsonObjectReader workload = root.Object("workload");
    config.workload.ReadJson(workload);
  }
  if (root.Has("run")) {
    JsonObjectReader run = root.Object("run");
    RunFields().Read(run, config);
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
  nlohmann::json index_json = index.ToJson();
  index_json.update(IndexFields().Write(*this));
  nlohmann::json backend_json = backend.type == "sim" ? BackendConfig::SimFields().Write(backend)
                                                      : backend.verbs.Fields().Write(backend.verbs);
  backend_json["type"] = backend.type;
  return {{"name", name},
          {"index", index_json},
          {"topology", topology.ToJson()},
          {"backend", backend_json},
          {"substrate", substrate.ToJson()},
          {"workload", workload.ToJson()},
          {"run", RunFields().Write(*this)}};
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
