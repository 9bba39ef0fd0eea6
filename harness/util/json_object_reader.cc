#include "harness/util/json_object_reader.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "harness/rdma/errors.h"

namespace dmbench {

namespace {

std::string Describe(const nlohmann::json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

template <typename T>
std::string RangeText(T min, T max) {
  std::ostringstream text;
  text << "[" << min << ", " << max << "]";
  return text.str();
}

}  // namespace

JsonObjectReader::JsonObjectReader(const nlohmann::json& object, std::string path)
    : object_(object), path_(std::move(path)) {
  if (!object_.is_object()) {
    throw ConfigError((path_.empty() ? std::string("the config") : path_) +
                      ": must be a JSON object, got " + Describe(object_));
  }
}

std::string JsonObjectReader::FieldPath(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

void JsonObjectReader::Fail(const std::string& key, const std::string& what) const {
  throw ConfigError(FieldPath(key) + ": " + what);
}

bool JsonObjectReader::Has(const std::string& key) const { return object_.contains(key); }

const nlohmann::json& JsonObjectReader::Get(const std::string& key) {
  known_.insert(key);
  return object_.at(key);
}

uint64_t JsonObjectReader::Unsigned(const std::string& key, uint64_t fallback, uint64_t min,
                                    uint64_t max) {
  known_.insert(key);
  if (!Has(key)) return fallback;
  const nlohmann::json& value = Get(key);
  if (!value.is_number_integer() || (!value.is_number_unsigned() && value.get<int64_t>() < 0)) {
    Fail(key, "must be an integer in " + RangeText(min, max) + ", got " + Describe(value));
  }
  const uint64_t number = value.get<uint64_t>();
  if (number < min || number > max) {
    Fail(key, "must be an integer in " + RangeText(min, max) + ", got " + Describe(value));
  }
  return number;
}

double JsonObjectReader::Number(const std::string& key, double fallback, double min, double max) {
  known_.insert(key);
  if (!Has(key)) return fallback;
  return RequiredNumber(key, min, max);
}

double JsonObjectReader::RequiredNumber(const std::string& key, double min, double max) {
  if (!Has(key)) Fail(key, "is required: a number in " + RangeText(min, max));
  const nlohmann::json& value = Get(key);
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < min ||
      value.get<double>() > max) {
    Fail(key, "must be a number in " + RangeText(min, max) + ", got " + Describe(value));
  }
  return value.get<double>();
}

bool JsonObjectReader::Bool(const std::string& key, bool fallback) {
  known_.insert(key);
  if (!Has(key)) return fallback;
  const nlohmann::json& value = Get(key);
  if (!value.is_boolean()) Fail(key, "must be true or false, got " + Describe(value));
  return value.get<bool>();
}

std::string JsonObjectReader::String(const std::string& key, const std::string& fallback) {
  known_.insert(key);
  if (!Has(key)) return fallback;
  return RequiredString(key);
}

std::string JsonObjectReader::RequiredString(const std::string& key) {
  if (!Has(key)) Fail(key, "is required: a string");
  const nlohmann::json& value = Get(key);
  if (!value.is_string() || value.get<std::string>().empty()) {
    Fail(key, "must be a non-empty string, got " + Describe(value));
  }
  return value.get<std::string>();
}

std::string JsonObjectReader::Choice(const std::string& key, const std::string& fallback,
                                     const std::vector<std::string>& allowed) {
  std::string list;
  for (const std::string& option : allowed) list += (list.empty() ? "" : ", ") + option;
  known_.insert(key);
  if (!Has(key)) return fallback;
  const nlohmann::json& value = Get(key);
  const std::string choice = value.is_string() ? value.get<std::string>() : "";
  for (const std::string& option : allowed) {
    if (option == choice) return choice;
  }
  Fail(key, "must be one of {" + list + "}, got " + Describe(value));
}

const nlohmann::json& JsonObjectReader::Raw(const std::string& key) {
  if (!Has(key)) Fail(key, "is required");
  return Get(key);
}

JsonObjectReader JsonObjectReader::Object(const std::string& key) {
  if (!Has(key)) Fail(key, "is required: an object");
  return JsonObjectReader(Get(key), FieldPath(key));
}

void JsonObjectReader::RejectUnknownKeys() const {
  for (const auto& [key, value] : object_.items()) {
    if (known_.count(key) != 0) continue;
    std::string list;
    for (const std::string& option : known_) list += (list.empty() ? "" : ", ") + option;
    throw ConfigError("unknown key " + FieldPath(key) + " (allowed here: " + list + ")");
  }
}

nlohmann::json ReadJsonFile(const std::string& file) {
  std::ifstream stream(file);
  if (!stream) throw ConfigError("cannot open " + file);
  try {
    return nlohmann::json::parse(stream, nullptr, true, /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& error) {
    throw ConfigError(file + ": not valid JSON: " + error.what());
  }
}

}  // namespace dmbench
