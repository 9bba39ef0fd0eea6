#include "harness/rdma/sim/nic_profile.h"

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/nic_parameters.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::rdma::sim {

namespace {

std::string Join(std::span<const std::string_view> names) {
  std::string joined;
  for (std::string_view name : names) joined += (joined.empty() ? "" : ", ") + std::string(name);
  return joined;
}

// Reads `parameter` from `holder[key]` into `profile`: the one place where a
// value's type, range and shape are checked, for profile files and
// overrides alike.
void ReadValue(const NicParameter& parameter, JsonObjectReader& holder, const std::string& key,
               NicProfile& profile) {
  using Kind = NicParameter::Kind;
  if (parameter.kind == Kind::kChoice) {
    std::vector<std::string> allowed(parameter.names.begin(), parameter.names.end());
    if (!holder.Has(key)) {
      throw ConfigError(holder.FieldPath(key) + ": is required: one of {" + Join(parameter.names) +
                        "}");
    }
    parameter.set(profile, holder.Choice(key, allowed.front(), allowed));
    return;
  }
  const double value = holder.RequiredNumber(key, parameter.min, parameter.max);
  if (parameter.kind == Kind::kReal) {
    profile.*parameter.real = value;
    return;
  }
  // The range check above keeps a whole parameter far below 2^53.
  if (!IsExactWholeNumber(value)) {
    throw ConfigError(holder.FieldPath(key) + ": must be a whole number, got " +
                      std::to_string(value));
  }
  const auto whole = static_cast<uint64_t>(value);
  if (parameter.power_of_two && !std::has_single_bit(whole)) {
    throw ConfigError(holder.FieldPath(key) + ": must be a power of two, got " +
                      std::to_string(whole));
  }
  profile.*parameter.whole = whole;
}

nlohmann::json ValueJson(const NicParameter& parameter, const NicProfile& profile) {
  switch (parameter.kind) {
    case NicParameter::Kind::kReal:
      return profile.*parameter.real;
    case NicParameter::Kind::kWhole:
      return profile.*parameter.whole;
    case NicParameter::Kind::kChoice:
      return std::string(parameter.get(profile));
  }
  return nullptr;
}

}  // namespace

const char* DmaOrderName(DmaOrder order) {
  switch (order) {
    case DmaOrder::kAscending:
      return "ascending";
    case DmaOrder::kDescending:
      return "descending";
    case DmaOrder::kRandom:
      return "random";
  }
  return "unknown";
}

DmaOrder ParseDmaOrder(const std::string& name) {
  if (name == "ascending") return DmaOrder::kAscending;
  if (name == "descending") return DmaOrder::kDescending;
  if (name == "random") return DmaOrder::kRandom;
  throw ConfigError("dma_read_order: must be one of {ascending, descending, random}, got \"" +
                    name + "\"");
}

const char* BucketArbitrationName(BucketArbitration arbitration) {
  return arbitration == BucketArbitration::kFifo ? "fifo" : "random";
}

BucketArbitration ParseBucketArbitration(const std::string& name) {
  if (name == "fifo") return BucketArbitration::kFifo;
  if (name == "random") return BucketArbitration::kRandom;
  throw ConfigError("atomic_bucket_arbitration: must be one of {fifo, random}, got \"" + name +
                    "\"");
}

NicProfile NicProfile::FromJson(JsonObjectReader& reader) {
  NicProfile profile;
  profile.name = reader.RequiredString("name");
  profile.description = reader.String("description", "");
  JsonObjectReader parameters = reader.Object("parameters");
  for (const NicParameter& parameter : NicParameters()) {
    const std::string key(parameter.key);
    if (parameter.has_default && !parameters.Has(key)) {
      if (parameter.kind == NicParameter::Kind::kChoice) {
        parameter.set(profile, parameter.default_name);
      } else {
        const nlohmann::json defaults = {{"value", parameter.default_value}};
        JsonObjectReader holder(defaults, parameters.FieldPath(key));
        ReadValue(parameter, holder, "value", profile);
      }
      profile.sources[key] = std::string(kDefaultSource);
      continue;
    }
    // Reads {"value": ..., "source": "..."}; the source is mandatory so that
    // no number enters the model without provenance.
    JsonObjectReader entry = parameters.Object(key);
    ReadValue(parameter, entry, "value", profile);
    profile.sources[key] = entry.RequiredString("source");
    entry.RejectUnknownKeys();
  }
  parameters.RejectUnknownKeys();
  reader.RejectUnknownKeys();
  return profile;
}

void NicProfile::ApplyOverrides(JsonObjectReader& overrides, const std::string& origin) {
  for (const NicParameter& parameter : NicParameters()) {
    const std::string key(parameter.key);
    if (!overrides.Has(key)) continue;
    ReadValue(parameter, overrides, key, *this);
    sources[key] = "overridden by " + origin;
  }
  overrides.RejectUnknownKeys();
}

std::string ConfigDirectory() {
  if (const char* directory = std::getenv("DMBENCH_CONFIG_DIR")) return directory;
  return std::string(DMBENCH_SOURCE_DIR) + "/configs";
}

NicProfile NicProfile::Find(const std::string& name_or_path) {
  const bool is_path =
      name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json");
  if (is_path) return Load(name_or_path);
  const std::filesystem::path directory = std::filesystem::path(ConfigDirectory()) / "nic";
  const std::filesystem::path file = directory / (name_or_path + ".json");
  std::error_code missing;  // a name too long for the file system is unknown too
  if (!std::filesystem::is_regular_file(file, missing)) {
    std::string available;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
      if (entry.path().extension() == ".json") {
        available += (available.empty() ? "" : ", ") + entry.path().stem().string();
      }
    }
    throw ConfigError("unknown NIC profile '" + Printable(name_or_path) + "' (available in " +
                      directory.string() + ": " + (available.empty() ? "none" : available) + ")");
  }
  return Load(file.string());
}

nlohmann::json NicProfile::ToJson() const {
  nlohmann::json json = {{"name", name}};
  for (const NicParameter& parameter : NicParameters()) {
    json[std::string(parameter.key)] = ValueJson(parameter, *this);
  }
  return json;
}

std::string NicProfile::CalibrationMarkdown() const {
  std::ostringstream out;
  out << "# NIC profile `" << name << "`: calibration\n\n"
      << "Generated by `dmbench nic --describe " << name << "` from configs/nic/" << name
      << ".json; edit that file, not this one.\n\n"
      << description << "\n";
  std::string_view group;
  for (const NicParameter& parameter : NicParameters()) {
    if (parameter.group != group) {
      group = parameter.group;
      out << "\n## " << group
          << "\n\n| Parameter | Meaning | Value | Source |\n|---|---|---|---|\n";
    }
    const auto source = sources.find(std::string(parameter.key));
    std::string value = ValueJson(parameter, *this).dump();
    if (parameter.kind == NicParameter::Kind::kChoice) value = std::string(parameter.get(*this));
    out << "| `" << parameter.key << "` | " << parameter.meaning;
    if (parameter.kind == NicParameter::Kind::kChoice) out << " {" << Join(parameter.names) << "}";
    out << " | " << value << " | " << (source == sources.end() ? "none" : source->second) << " |\n";
  }
  return out.str();
}

NicProfile NicProfile::Load(const std::string& file) {
  const nlohmann::json document = ReadJsonFile(file);
  try {
    JsonObjectReader reader(document, "");
    return FromJson(reader);
  } catch (const ConfigError& error) {
    throw ConfigError("NIC profile " + Printable(file, 200) + ": " + error.what());
  }
}

}  // namespace dmbench::rdma::sim
