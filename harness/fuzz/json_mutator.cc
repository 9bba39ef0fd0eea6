#include "harness/fuzz/json_mutator.h"

#include <array>
#include <cstdint>
#include <limits>

#include <nlohmann/json.hpp>

namespace dmbench::fuzz {

namespace {

using Pointer = nlohmann::json::json_pointer;

void Collect(const nlohmann::json& node, const Pointer& at, std::vector<Pointer>& out) {
  out.push_back(at);
  if (node.is_object()) {
    for (const auto& [key, child] : node.items()) Collect(child, at / key, out);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) Collect(node[i], at / i, out);
  }
}

// Numbers that sit on the edges of the ranges the readers check: zero, one
// off, powers of two around the integer widths, the largest doubles.
const std::array<nlohmann::json, 32>& EdgeNumbers() {
  static const std::array<nlohmann::json, 32> numbers = {0,
                                                         1,
                                                         -1,
                                                         2,
                                                         7,
                                                         64,
                                                         255,
                                                         256,
                                                         1023,
                                                         1024,
                                                         65535,
                                                         65536,
                                                         int64_t{1} << 31,
                                                         uint64_t{1} << 32,
                                                         uint64_t{1} << 48,
                                                         (uint64_t{1} << 53) + 1,
                                                         std::numeric_limits<int64_t>::max(),
                                                         std::numeric_limits<int64_t>::min(),
                                                         std::numeric_limits<uint64_t>::max(),
                                                         0.5,
                                                         -0.0,
                                                         1e-9,
                                                         1e-300,
                                                         4.9e-324,
                                                         0.999999,
                                                         1.5,
                                                         1e6,
                                                         1e15,
                                                         1e300,
                                                         std::numeric_limits<double>::max(),
                                                         -1e300,
                                                         0.1};
  return numbers;
}

const std::array<const char*, 16> kEdgeStrings = {"",
                                                  "x",
                                                  "sherman",
                                                  "fgplus",
                                                  "cx5-100g",
                                                  "no-such-profile",
                                                  "configs/nic/cx5-100g.json",
                                                  "no/such/file.json",
                                                  "configs",
                                                  ".",
                                                  "%s%n%x",
                                                  "nan",
                                                  "1e999",
                                                  "-1",
                                                  "\xc3\xa9\xff\xfe",
                                                  "two_level"};

// value + step (±1), `value` a JSON integer, as the JSON number it is: an
// integer where int64 or uint64 holds it, else the nearest double. Past the
// ends of int64 and uint64 are the numbers a reader must refuse, and the
// arithmetic that finds them must not overflow (a signed overflow is
// undefined, and UBSan stops the campaign there).
nlohmann::json IntegerNeighbour(const nlohmann::json& value, int step) {
  if (value.is_number_unsigned()) {
    const auto n = value.get<uint64_t>();
    if (step > 0) {
      return n == std::numeric_limits<uint64_t>::max() ? nlohmann::json(static_cast<double>(n) + 1)
                                                       : nlohmann::json(n + 1);
    }
    return n == 0 ? nlohmann::json(int64_t{-1}) : nlohmann::json(n - 1);
  }
  const auto n = value.get<int64_t>();
  if (step > 0) {
    return n == std::numeric_limits<int64_t>::max() ? nlohmann::json(uint64_t{1} << 63)
                                                    : nlohmann::json(n + 1);
  }
  return n == std::numeric_limits<int64_t>::min() ? nlohmann::json(static_cast<double>(n) - 1)
                                                  : nlohmann::json(n - 1);
}

}  // namespace

JsonMutator::Donors JsonMutator::CollectDonors(const std::vector<nlohmann::json>& documents) {
  Donors donors;
  for (const nlohmann::json& document : documents) {
    for (const Pointer& pointer : Pointers(document)) {
      donors[pointer.to_string()].push_back(document[pointer]);
    }
  }
  return donors;
}

JsonMutator::JsonMutator(Random& random, const Donors& donors)
    : random_(random), donor_values_(donors) {}

std::vector<Pointer> JsonMutator::Pointers(const nlohmann::json& document) {
  std::vector<Pointer> pointers;
  Collect(document, Pointer(), pointers);
  return pointers;
}

nlohmann::json JsonMutator::EdgeValue() {
  switch (Below(8)) {
    case 0:
    case 1:
    case 2:
      return EdgeNumbers()[Below(EdgeNumbers().size())];
    case 3: {
      std::string text = kEdgeStrings[Below(kEdgeStrings.size())];
      if (OneIn(8)) text.assign(4096 + Below(4096), 'a');
      if (OneIn(8)) text.push_back('\0');
      return text;
    }
    case 4:
      return OneIn(2);
    case 5:
      return nullptr;
    case 6:
      return OneIn(2) ? nlohmann::json::array() : nlohmann::json::array({EdgeValue()});
    default:
      return OneIn(2) ? nlohmann::json::object()
                      : nlohmann::json{{"value", EdgeValue()}, {"source", "fuzz"}};
  }
}

std::string JsonMutator::NearKey(const std::string& key) {
  std::string near = key;
  switch (Below(5)) {
    case 0:
      if (!near.empty()) near.erase(Below(near.size()), 1);
      break;
    case 1:
      near.insert(Below(near.size() + 1), 1, static_cast<char>('a' + Below(26)));
      break;
    case 2:
      near += "_";
      break;
    case 3:
      for (char& c : near) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
      break;
    default:
      near = "unknown_key";
  }
  return near;
}

nlohmann::json JsonMutator::NearValue(const nlohmann::json& value) {
  if (value.is_number()) {
    const double number = value.get<double>();
    switch (Below(7)) {
      case 0:
        return value.is_number_integer() ? IntegerNeighbour(value, +1) : nlohmann::json(number + 1);
      case 1:
        return value.is_number_integer() ? IntegerNeighbour(value, -1) : nlohmann::json(number - 1);
      case 2:
        return number * 2;
      case 3:
        return number / 2;
      case 4:
        return -number;
      case 5:
        return number * 1000;
      default:
        return 0;
    }
  }
  if (value.is_string()) return OneIn(3) ? std::string() : NearKey(value.get<std::string>());
  if (value.is_boolean()) return !value.get<bool>();
  if (value.is_array() && !value.empty()) {
    nlohmann::json longer = value;
    longer.push_back(value[Below(value.size())]);
    return OneIn(2) ? nlohmann::json::array() : longer;
  }
  return EdgeValue();
}

void JsonMutator::Edit(nlohmann::json& document) {
  const std::vector<Pointer> pointers = Pointers(document);
  // The root is edited rarely: most damage that matters is deep.
  const Pointer target = pointers.size() > 1 && !OneIn(50)
                             ? pointers[1 + Below(pointers.size() - 1)]
                             : pointers.front();
  nlohmann::json& node = document[target];
  switch (Below(8)) {
    case 0:
      node = EdgeValue();
      return;
    case 1:
    case 2:
      node = NearValue(node);
      return;
    case 3:
    case 4: {
      // A valid value from another document, at the same place if one has
      // it: valid values in combinations nobody tried.
      auto donors = donor_values_.find(target.to_string());
      if (donors == donor_values_.end() || OneIn(4)) {
        if (donor_values_.empty()) return;
        donors = std::next(donor_values_.begin(),
                           static_cast<std::ptrdiff_t>(Below(donor_values_.size())));
      }
      node = donors->second[Below(donors->second.size())];
      return;
    }
    case 5:
      if (target.empty()) return;
      {
        nlohmann::json& parent = document[target.parent_pointer()];
        if (parent.is_object()) {
          parent.erase(target.back());
        } else if (parent.is_array()) {
          parent.erase(static_cast<size_t>(std::stoull(target.back())));
        }
      }
      return;
    case 6:
      if (node.is_object()) {
        const std::string key =
            node.empty() || OneIn(3) ? "unknown_key" : NearKey(node.begin().key());
        node[key] = OneIn(2) || node.empty() ? EdgeValue() : node.begin().value();
      } else if (node.is_array()) {
        node.push_back(node.empty() ? EdgeValue() : node[Below(node.size())]);
      } else {
        node = OneIn(2) ? nlohmann::json::array({node}) : nlohmann::json{{"value", node}};
      }
      return;
    default: {
      // Another node's value here (never one that contains this node).
      const Pointer source = pointers[Below(pointers.size())];
      if (!source.empty() && source.to_string().rfind(target.to_string(), 0) != 0 &&
          target.to_string().rfind(source.to_string(), 0) != 0) {
        node = document[source];
      }
      return;
    }
  }
}

nlohmann::json JsonMutator::Mutate(nlohmann::json document, uint32_t edits) {
  for (uint32_t i = 0; i < edits; ++i) Edit(document);
  return document;
}

std::string JsonMutator::DamageText(std::string text) {
  const uint32_t edits = 1 + static_cast<uint32_t>(Below(4));
  for (uint32_t i = 0; i < edits; ++i) {
    const size_t at = Below(text.size() + 1);
    switch (Below(7)) {
      case 0:
        if (at < text.size()) text[at] = static_cast<char>(Below(256));
        break;
      case 1:
        text.insert(at, 1, "{}[]\",:0-e.\\ \n/"[Below(15)]);
        break;
      case 2:
        if (at < text.size()) text.erase(at, 1 + Below(16));
        break;
      case 3:
        text.resize(at);  // truncated
        break;
      case 4:
        text.insert(at, text.substr(at, Below(64)));
        break;
      case 5:
        // Nesting far deeper than any real document.
        text.insert(at, std::string(1000 + Below(200000), OneIn(2) ? '[' : '{'));
        break;
      default:
        text.insert(at, OneIn(2) ? "/*" : "//");
    }
  }
  return text;
}

std::string JsonMutator::DottedPath(const Pointer& pointer) const {
  std::string path = pointer.to_string();
  for (char& c : path) c = c == '/' ? '.' : c;
  return path.empty() ? path : path.substr(1);
}

std::string JsonMutator::RandomAssignment(const nlohmann::json& document) {
  static const std::array<const char*, 8> kOddPaths = {
      "", ".", "index.", ".index", "index..type", "a.b.c.d.e", "=", "run.seed.x"};
  std::string path;
  if (OneIn(6)) {
    path = kOddPaths[Below(kOddPaths.size())];
  } else {
    const std::vector<Pointer> pointers = Pointers(document);
    path = DottedPath(pointers[Below(pointers.size())]);
    if (OneIn(5)) path = NearKey(path);
  }
  std::string pointer = "/" + path;
  for (char& c : pointer) c = c == '.' ? '/' : c;
  std::string value;
  switch (Below(6)) {
    case 0:
    case 5: {
      const auto donors = donor_values_.find(pointer);
      value = donors != donor_values_.end()
                  ? donors->second[Below(donors->second.size())].dump(
                        -1, ' ', false, nlohmann::json::error_handler_t::replace)
                  : EdgeValue().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      break;
    }
    case 1:
      value = EdgeValue().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      break;
    case 2:
      value = kEdgeStrings[Below(kEdgeStrings.size())];  // a bare word
      break;
    case 3:
      value =
          DamageText(EdgeValue().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      break;
    default:
      value = std::to_string(static_cast<int64_t>(random_.NextU64()));
  }
  if (OneIn(10)) return path + value;  // no '='
  return path + "=" + value;
}

}  // namespace dmbench::fuzz
