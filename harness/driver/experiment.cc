#include "harness/driver/experiment.h"

#include <cctype>
#include <optional>
#include <set>

#include "harness/driver/run_config.h"
#include "harness/driver/run_feasibility.h"
#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::driver {

namespace {

std::string ValueText(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// Letters, digits and a few separators survive; anything else becomes '-'.
std::string FileSafe(const std::string& text) {
  std::string safe;
  for (char c : text) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' ||
                      c == '=' || c == '+' || c == '-';
    safe += keep ? c : '-';
  }
  return safe;
}

// A point's result files are POINT.json, POINT.config.json, POINT.log and
// POINT.json.partial; file systems allow 255 bytes per name.
constexpr size_t kMaxPointNameBytes = 200;

struct Variant {
  std::string name;
  nlohmann::json set;  // path -> value
};

std::vector<Variant> ReadVariants(JsonObjectReader& reader) {
  std::vector<Variant> variants;
  if (!reader.Has("variants")) return {Variant{"", nlohmann::json::object()}};
  const nlohmann::json& list = reader.Raw("variants");
  if (!list.is_array() || list.empty()) {
    throw ConfigError("variants: must be a non-empty list of {\"name\": ..., \"set\": {...}}");
  }
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    JsonObjectReader variant(list[i], "variants[" + std::to_string(i) + "]");
    Variant parsed{variant.RequiredString("name"), nlohmann::json::object()};
    if (variant.Has("set")) {
      parsed.set = variant.Raw("set");
      if (!parsed.set.is_object()) {
        throw ConfigError(variant.FieldPath("set") + ": must be an object of path: value");
      }
    }
    variant.RejectUnknownKeys();
    if (!names.insert(parsed.name).second) {
      throw ConfigError(variant.FieldPath("name") + ": \"" + parsed.name + "\" is used twice");
    }
    variants.push_back(std::move(parsed));
  }
  return variants;
}

// The cartesian product of the sweep's axes, as objects of path -> value.
// An axis is one path and its values, or several paths joined by commas
// whose values change together: each value is a list with one entry per
// path ("topology.threads_per_compute_server,topology.coroutines_per_thread":
// [[8, 1], [22, 3]]), for a figure whose x-axis is reached by different
// fields in different ranges.
std::vector<nlohmann::json> ReadSweep(JsonObjectReader& reader) {
  std::vector<nlohmann::json> combinations = {nlohmann::json::object()};
  if (!reader.Has("sweep")) return combinations;
  const nlohmann::json& axes = reader.Raw("sweep");
  const std::string where = reader.FieldPath("sweep");
  if (!axes.is_object()) throw ConfigError(where + ": must be an object of path: [values]");
  for (const auto& [axis, values] : axes.items()) {
    // The axis is the file's own key: quoted whole, a key of 100 kB made
    // the message unreadable.
    const std::string axis_path = where + "." + Printable(axis, 120);
    if (!values.is_array() || values.empty()) {
      throw ConfigError(axis_path + ": must be a non-empty list of values");
    }
    std::vector<std::string> paths;
    for (size_t begin = 0;;) {
      const size_t comma = axis.find(',', begin);
      paths.push_back(axis.substr(begin, comma - begin));
      if (comma == std::string::npos) break;
      begin = comma + 1;
    }
    std::vector<nlohmann::json> crossed;
    for (const nlohmann::json& combination : combinations) {
      for (const nlohmann::json& value : values) {
        nlohmann::json next = combination;
        if (paths.size() == 1) {
          next[axis] = value;
        } else {
          if (!value.is_array() || value.size() != paths.size()) {
            throw ConfigError(axis_path + ": each value must be a list of " +
                              std::to_string(paths.size()) + " values, one per path; got " +
                              Printable(value.dump(), 80));
          }
          for (size_t i = 0; i < paths.size(); ++i) next[paths[i]] = value[i];
        }
        crossed.push_back(std::move(next));
      }
    }
    combinations = std::move(crossed);
  }
  return combinations;
}

// The figure registry lives in the experiment files: "ae" is the name
// ae/run.sh knows the experiment by (experiments sharing it run together),
// "plot" the script that draws it (plots/SCRIPT.py's draw(), into OUTPUT,
// with OPTIONS). Only their shape is checked here; plots/ checks that the
// script exists.
void ReadFigureRegistration(JsonObjectReader& reader) {
  if (reader.Has("ae")) {
    const std::string ae = reader.RequiredString("ae");
    if (ae.empty() || FileSafe(ae) != ae) {
      throw ConfigError("ae: \"" + Printable(ae) +
                        "\" must be a non-empty word of letters, digits and . _ = + - (a name "
                        "for ae/run.sh's command line)");
    }
  }
  if (!reader.Has("plot")) return;
  JsonObjectReader plot = reader.Object("plot");
  const std::string script = plot.RequiredString("script");
  for (const char* key : {"script", "output"}) {
    const std::string name = plot.String(key, script);
    if (name.empty() || FileSafe(name) != name) {
      throw ConfigError(plot.FieldPath(key) + ": \"" + Printable(name) +
                        "\" must be a file name without extension (plots/NAME.py, "
                        "report figures/NAME.png)");
    }
  }
  if (plot.Has("options") && !plot.Raw("options").is_object()) {
    throw ConfigError(plot.FieldPath("options") + ": must be an object of the script's options");
  }
  plot.RejectUnknownKeys();
}

}  // namespace

Experiment LoadExperiment(const std::string& file, const std::vector<std::string>& sets,
                          ExperimentScale scale) {
  Experiment experiment;
  experiment.definition = ReadJsonFile(file);
  try {
    JsonObjectReader reader(experiment.definition, "");
    experiment.name = reader.RequiredString("name");
    if (FileSafe(experiment.name) != experiment.name) {
      throw ConfigError("name: \"" + Printable(experiment.name) +
                        "\" must use only letters, digits and . _ = + - (it names a directory)");
    }
    experiment.figure = reader.String("figure", "");
    experiment.description = reader.String("description", "");
    nlohmann::json paper_set = nlohmann::json::object();
    std::optional<std::vector<nlohmann::json>> paper_sweep;
    if (reader.Has("paper_scale")) {
      // Text for readers, besides the "set" and "sweep" that --paper-scale
      // applies; those are checked at either scale, so a bad one fails early.
      if (!reader.Raw("paper_scale").is_object()) {
        throw ConfigError("paper_scale: must be an object");
      }
      JsonObjectReader paper(reader.Raw("paper_scale"), "paper_scale");
      if (paper.Has("set")) {
        paper_set = paper.Raw("set");
        if (!paper_set.is_object()) {
          throw ConfigError("paper_scale.set: must be an object of path: value");
        }
      }
      if (paper.Has("sweep")) paper_sweep = ReadSweep(paper);
    }
    ReadFigureRegistration(reader);
    if (reader.Has("micro")) {
      JsonObjectReader micro = reader.Object("micro");
      const nlohmann::json& arguments = micro.Raw("arguments");
      ExperimentPoint point;
      point.name = "micro";
      if (!arguments.is_array() || arguments.empty()) {
        throw ConfigError("micro.arguments: must be a non-empty list of strings");
      }
      for (const nlohmann::json& argument : arguments) {
        if (!argument.is_string()) throw ConfigError("micro.arguments: must be strings");
        point.micro_arguments.push_back(argument.get<std::string>());
      }
      micro.RejectUnknownKeys();
      reader.RejectUnknownKeys();
      if (reader.Has("base") || reader.Has("variants") || reader.Has("sweep") || !sets.empty()) {
        throw ConfigError(
            "micro: a microbenchmark experiment has no base, variants, sweep or --set");
      }
      experiment.points.push_back(std::move(point));
      return experiment;
    }
    nlohmann::json base = reader.Has("base") ? reader.Raw("base") : nlohmann::json::object();
    if (!base.is_object()) throw ConfigError("base: must be a run config (a JSON object)");
    const bool paper = scale == ExperimentScale::kPaper;
    if (paper && paper_set.empty()) {
      throw ConfigError(
          "--paper-scale: the experiment states no paper_scale.set (the field overrides that "
          "give the paper's setup, e.g. {\"workload.keys\": 1000000000})");
    }
    if (paper) {
      for (const auto& [path, value] : paper_set.items()) {
        try {
          base = SetPath(std::move(base), path, value);
        } catch (const ConfigError& error) {
          // SetPath's message starts with the path, quoted cut short.
          throw ConfigError(std::string("paper_scale.set: ") + error.what());
        }
      }
    }
    for (const std::string& assignment : sets) base = ApplySet(std::move(base), assignment);
    const std::vector<Variant> variants = ReadVariants(reader);
    std::vector<nlohmann::json> combinations = ReadSweep(reader);
    if (paper && paper_sweep) combinations = *paper_sweep;
    reader.RejectUnknownKeys();

    std::set<std::string> names;
    for (const Variant& variant : variants) {
      for (const nlohmann::json& combination : combinations) {
        ExperimentPoint point;
        point.variant = variant.name;
        point.settings = combination;
        point.config = base;
        for (const auto& [path, value] : variant.set.items()) {
          point.config = SetPath(std::move(point.config), path, value);
        }
        std::string name = variant.name;
        for (const auto& [path, value] : combination.items()) {
          point.config = SetPath(std::move(point.config), path, value);
          name += (name.empty() ? "" : "__") + path + "=" + ValueText(value);
        }
        point.name = FileSafe(name.empty() ? "base" : name);
        if (point.name.size() > kMaxPointNameBytes) {
          throw ConfigError("point " + Printable(point.name) +
                            ": its name, the variant's and the "
                            "sweep values', is " +
                            std::to_string(point.name.size()) +
                            " bytes; it names the point's result file, which allows at most " +
                            std::to_string(kMaxPointNameBytes));
        }
        if (!names.insert(point.name).second) {
          // Each point's result file is named after it.
          throw ConfigError("two points are named " + Printable(point.name, 120) +
                            ", so one's result file would overwrite the other's: give the "
                            "variants distinct names and each sweep axis distinct values");
        }
        point.config["name"] = experiment.name + "/" + point.name;
        try {
          CheckRunCanProgress(RunConfig::FromJson(point.config));
        } catch (const ConfigError& error) {
          throw ConfigError("point " + point.name + ": " + error.what());
        }
        experiment.points.push_back(std::move(point));
      }
    }
  } catch (const ConfigError& error) {
    throw ConfigError(file + ": " + error.what());
  }
  return experiment;
}

}  // namespace dmbench::driver
