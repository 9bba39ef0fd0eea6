// The one list of a config section's fields. A section (an index's options,
// the topology, the run window, a backend) declares each field once: its
// key, its member, what values are allowed and what it means. Reading a
// section, writing its resolved form and documenting it all walk that list,
// so a new field is one line here plus its member in the struct.
//
// Reading goes through JsonObjectReader, so errors name the field's full
// path and what is allowed; an absent key keeps the struct's current value
// (a default or a preset). Cross-field rules stay with the section's own
// Validate(): a list only knows one field at a time.
//
// A ConfigFields is built once (a function-local static) and only read
// after, so any thread may use it.
#pragma once

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/util/json_object_reader.h"

namespace dmbench {

template <typename Struct>
class ConfigFields {
 public:
  struct Field {
    std::string key;
    std::string allowed;  // "integer in [8, 1024]", "one of {crc, node}", ...
    std::string meaning;
    std::function<void(JsonObjectReader&, Struct&)> read;
    std::function<nlohmann::json(const Struct&)> write;
  };

  // An integer member of any width, read in [min, max].
  template <typename Integer>
  ConfigFields& Unsigned(std::string key, Integer Struct::*member, uint64_t min, uint64_t max,
                         std::string meaning) {
    return Add(
        key, "integer in " + Range(min, max), std::move(meaning),
        [=](JsonObjectReader& reader, Struct& section) {
          section.*member = static_cast<Integer>(
              reader.Unsigned(key, static_cast<uint64_t>(section.*member), min, max));
        },
        [=](const Struct& section) { return nlohmann::json(section.*member); });
  }

  ConfigFields& Number(std::string key, double Struct::*member, double min, double max,
                       std::string meaning) {
    return Add(
        key, "number in " + Range(min, max), std::move(meaning),
        [=](JsonObjectReader& reader, Struct& section) {
          section.*member = reader.Number(key, section.*member, min, max);
        },
        [=](const Struct& section) { return nlohmann::json(section.*member); });
  }

  ConfigFields& Bool(std::string key, bool Struct::*member, std::string meaning) {
    return Add(
        key, "true or false", std::move(meaning),
        [=](JsonObjectReader& reader, Struct& section) {
          section.*member = reader.Bool(key, section.*member);
        },
        [=](const Struct& section) { return nlohmann::json(section.*member); });
  }

  ConfigFields& String(std::string key, std::string Struct::*member, std::string meaning) {
    return Text(std::move(key), member, "text", std::move(meaning), &JsonObjectReader::String);
  }

  // A file path, "" meaning none.
  ConfigFields& OptionalPath(std::string key, std::string Struct::*member, std::string meaning) {
    return Text(std::move(key), member, "a file path, \"\" for none", std::move(meaning),
                &JsonObjectReader::StringOrEmpty);
  }

  // A member of any type (an enum, usually) written as one of `names`.
  template <typename Value>
  ConfigFields& Choice(std::string key, Value Struct::*member,
                       std::vector<std::pair<std::string, Value>> names, std::string meaning) {
    std::vector<std::string> allowed;
    for (const auto& [name, value] : names) allowed.push_back(name);
    auto name_of = [=](const Value& value) {
      for (const auto& [name, candidate] : names) {
        if (candidate == value) return name;
      }
      return std::string("?");
    };
    return Add(
        key, "one of {" + CommaJoined(allowed) + "}", std::move(meaning),
        [=](JsonObjectReader& reader, Struct& section) {
          const std::string chosen = reader.Choice(key, name_of(section.*member), allowed);
          for (const auto& [name, value] : names) {
            if (name == chosen) section.*member = value;
          }
        },
        [=](const Struct& section) { return nlohmann::json(name_of(section.*member)); });
  }

  // A field with its own reading and writing (a unit conversion, a list).
  // A `write` that returns null leaves the key out of the resolved form (an
  // unset optional field).
  ConfigFields& Custom(std::string key, std::string allowed, std::string meaning,
                       std::function<void(JsonObjectReader&, Struct&)> read,
                       std::function<nlohmann::json(const Struct&)> write) {
    return Add(std::move(key), std::move(allowed), std::move(meaning), std::move(read),
               std::move(write));
  }

  // Reads every field present, in list order, over `section`. Unknown keys
  // are left to the caller's RejectUnknownKeys (a section may read a few
  // fields of its own first).
  void Read(JsonObjectReader& reader, Struct& section) const {
    for (const Field& field : fields_) field.read(reader, section);
  }

  // Every field's resolved value, keyed by its name.
  nlohmann::json Write(const Struct& section) const {
    nlohmann::json json = nlohmann::json::object();
    for (const Field& field : fields_) {
      nlohmann::json value = field.write(section);
      if (!value.is_null()) json[field.key] = std::move(value);
    }
    return json;
  }

  // One Markdown table row per field: key, allowed values, the value in
  // `defaults`, meaning.
  std::string MarkdownRows(const Struct& defaults) const {
    std::string rows;
    for (const Field& field : fields_) {
      const nlohmann::json value = field.write(defaults);
      rows.append("| `").append(field.key).append("` | ").append(field.allowed).append(" | ");
      if (value.is_null()) {
        rows.append("absent");
      } else {
        rows.append("`").append(value.dump()).append("`");
      }
      rows.append(" | ").append(field.meaning).append(" |\n");
    }
    return rows;
  }

  const std::vector<Field>& fields() const { return fields_; }

 private:
  using StringReader = std::string (JsonObjectReader::*)(const std::string&, const std::string&);
  ConfigFields& Text(std::string key, std::string Struct::*member, std::string type,
                     std::string meaning, StringReader read) {
    return Add(
        key, std::move(type), std::move(meaning),
        [=](JsonObjectReader& reader, Struct& section) {
          section.*member = (reader.*read)(key, section.*member);
        },
        [=](const Struct& section) { return nlohmann::json(section.*member); });
  }

  ConfigFields& Add(std::string key, std::string allowed, std::string meaning,
                    std::function<void(JsonObjectReader&, Struct&)> read,
                    std::function<nlohmann::json(const Struct&)> write) {
    fields_.push_back({std::move(key), std::move(allowed), std::move(meaning), std::move(read),
                       std::move(write)});
    return *this;
  }

  template <typename T>
  static std::string Range(T min, T max) {
    std::ostringstream text;
    text << "[" << min << ", " << max << "]";
    return text.str();
  }

  std::vector<Field> fields_;
};

}  // namespace dmbench
