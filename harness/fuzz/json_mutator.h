// Seeded damage to the JSON documents dmbench reads: structural edits of a
// valid document (values of the wrong type, edge numbers, missing and
// unknown keys, values recombined from other valid documents), byte-level
// damage to its text, and "--set" assignments. Everything comes from one
// seeded generator, so a case is reproduced by its seed alone.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/util/random.h"

namespace dmbench::fuzz {

class JsonMutator {
 public:
  // Values of valid documents by JSON pointer ("/index/node_bytes"), which
  // are recombined into the mutated ones: a valid value in an unusual
  // combination finds more than noise does.
  using Donors = std::map<std::string, std::vector<nlohmann::json>>;
  static Donors CollectDonors(const std::vector<nlohmann::json>& documents);

  // `donors` must outlive the mutator.
  JsonMutator(Random& random, const Donors& donors);

  // `edits` structural edits of `document`.
  nlohmann::json Mutate(nlohmann::json document, uint32_t edits);
  // Text damage: flipped, inserted, deleted or repeated bytes, truncation,
  // deep nesting.
  std::string DamageText(std::string text);
  // A "--set path=value" assignment: a path of `document` or a near miss,
  // a value from the donors, an edge value or raw text.
  std::string RandomAssignment(const nlohmann::json& document);

  // A value of any JSON type, mostly edge cases.
  nlohmann::json EdgeValue();
  uint64_t Below(uint64_t bound) { return random_.Uniform(bound); }
  bool OneIn(uint64_t n) { return random_.Uniform(n) == 0; }

 private:
  // Every node's JSON pointer in `document`, the root first.
  static std::vector<nlohmann::json::json_pointer> Pointers(const nlohmann::json& document);
  void Edit(nlohmann::json& document);
  nlohmann::json NearValue(const nlohmann::json& value);
  std::string NearKey(const std::string& key);
  std::string DottedPath(const nlohmann::json::json_pointer& pointer) const;

  Random& random_;
  const Donors& donor_values_;
};

}  // namespace dmbench::fuzz
