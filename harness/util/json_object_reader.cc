#include "harness/util/json_object_reader.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"

namespace dmbench {

namespace {

std::string Describe(const nlohmann::json& value) {
  // A string set from the command line may hold bytes that are not UTF-8.
  return Printable(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 57);
}

// Stops a parse at the first value nested deeper than kMaxJsonDepth.
struct TooDeep {
  size_t depth;
};

bool LimitDepth(int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
  if (depth > kMaxJsonDepth && (event == nlohmann::json::parse_event_t::object_start ||
                                event == nlohmann::json::parse_event_t::array_start)) {
    throw TooDeep{static_cast<size_t>(depth)};
  }
  return true;
}

// The library's parse error without its internal prefix, and with the
// text it last read (which can be a whole line of input) cut short.
std::string ParseErrorText(const nlohmann::json::exception& error) {
  std::string text = error.what();
  const size_t prefix = text.find("] ");
  if (text.starts_with("[json.exception") && prefix != std::string::npos) {
    text.erase(0, prefix + 2);
  }
  const std::string marker = "last read: '";
  const size_t start = text.find(marker);
  if (start != std::string::npos) {
    const size_t from = start + marker.size();
    const size_t end = text.rfind('\'');
    if (end != std::string::npos && end >= from) {
      std::string last = text.substr(from, end - from);
      if (last.size() > 40) last = "..." + last.substr(last.size() - 37);
      text = text.substr(0, from) + last + text.substr(end);
    }
  }
  return Printable(text, 300);
}

template <typename Input>
nlohmann::json Parse(Input&& input, const std::string& what) {
  try {
    return nlohmann::json::parse(std::forward<Input>(input), LimitDepth, true,
                                 /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& error) {
    throw ConfigError(what + ": not valid JSON: " + ParseErrorText(error));
  } catch (const nlohmann::json::out_of_range& error) {
    // A number beyond what a double holds ("1e999").
    throw ConfigError(what + ": not valid JSON: " + ParseErrorText(error));
  } catch (const TooDeep& deep) {
    throw ConfigError(what + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                      " levels (" + std::to_string(deep.depth) +
                      " or more); no input of "
                      "dmbench nests that deep");
  }
}

template <typename T>
std::string RangeText(T min, T max) {
  std::ostringstream text;
  text << "[" << min << ", " << max << "]";
  return text.str();
}

}  // namespace

bool IsExactWholeNumber(double value) {
  return value >= 0.0 && value <= 9007199254740992.0 && value == std::floor(value);
}

JsonObjectReader::JsonObjectReader(const nlohmann::json& object, std::string path)
    : object_(object), path_(std::move(path)) {
  if (!object_.is_object()) {
    throw ConfigError((path_.empty() ? std::string("the document") : path_) +
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
  uint64_t number = 0;
  if (value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0)) {
    number = value.get<uint64_t>();
  } else if (value.is_number_float() && IsExactWholeNumber(value.get<double>())) {
    // "keys": 1e9 is how a billion is written; JSON reads it as a double.
    number = static_cast<uint64_t>(value.get<double>());
  } else {
    Fail(key, "must be an integer in " + RangeText(min, max) + ", got " + Describe(value));
  }
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

std::string JsonObjectReader::StringOrEmpty(const std::string& key, const std::string& fallback) {
  known_.insert(key);
  if (!Has(key)) return fallback;
  const nlohmann::json& value = Get(key);
  if (!value.is_string()) Fail(key, "must be a string (\"\" for none), got " + Describe(value));
  return value.get<std::string>();
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
  known_.insert(key);
  if (!Has(key)) return fallback;
  const nlohmann::json& value = Get(key);
  const std::string choice = value.is_string() ? value.get<std::string>() : "";
  for (const std::string& option : allowed) {
    if (option == choice) return choice;
  }
  Fail(key, "must be one of {" + CommaJoined(allowed) + "}, got " + Describe(value));
}

std::string CommaJoined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
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
    throw ConfigError("unknown key " + Printable(FieldPath(key), 120) + " (allowed here: " + list +
                      ")");
  }
}

nlohmann::json ParseJson(std::istream& text, const std::string& what) { return Parse(text, what); }

nlohmann::json ParseJson(const std::string& text, const std::string& what) {
  return Parse(text, what);
}

nlohmann::json ReadJsonFile(const std::string& file) {
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) {
    throw ConfigError("cannot open " + Printable(file, 200) + ": it is a directory");
  }
  std::ifstream stream(file);
  if (!stream) throw ConfigError("cannot open " + Printable(file, 200));
  return Parse(stream, Printable(file, 200));
}

std::string Printable(std::string_view text, size_t max_bytes) {
  std::string shown;
  for (const char c : text) {
    if (shown.size() >= max_bytes) {
      shown += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      shown += c;
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      shown += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
    }
  }
  return shown;
}

}  // namespace dmbench
