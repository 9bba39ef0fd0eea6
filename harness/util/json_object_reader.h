// Reads one JSON object of a config file field by field, checking types and
// ranges, and rejects keys nobody asked for. Every error names the full path
// of the field and what is allowed, because users meet these at the prompt.
#pragma once

#include <cstdint>
#include <istream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dmbench {

class JsonObjectReader {
 public:
  // `path` prefixes field names in errors ("topology" -> "topology.x").
  JsonObjectReader(const nlohmann::json& object, std::string path);

  bool Has(const std::string& key) const;
  // An absent key keeps `fallback`; a present one must fit [min, max].
  uint64_t Unsigned(const std::string& key, uint64_t fallback, uint64_t min, uint64_t max);
  double Number(const std::string& key, double fallback, double min, double max);
  bool Bool(const std::string& key, bool fallback);
  std::string String(const std::string& key, const std::string& fallback);
  // As String, but "" is allowed (a field whose empty value means "none").
  std::string StringOrEmpty(const std::string& key, const std::string& fallback);
  std::string Choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& allowed);
  // Required variants: absent is an error.
  double RequiredNumber(const std::string& key, double min, double max);
  std::string RequiredString(const std::string& key);
  JsonObjectReader Object(const std::string& key);
  // The value as it is (arrays, free-form objects); throws if absent.
  const nlohmann::json& Raw(const std::string& key);

  // Throws ConfigError for the first key that no accessor asked for, listing
  // the keys that are allowed here. Call after reading every field.
  void RejectUnknownKeys() const;

  std::string FieldPath(const std::string& key) const;

 private:
  const nlohmann::json& Get(const std::string& key);
  [[noreturn]] void Fail(const std::string& key, const std::string& what) const;

  const nlohmann::json& object_;
  std::string path_;
  std::set<std::string> known_;
};

// JSON nested deeper than this is refused: no config or result comes near
// it, and the library recurses once per level when it copies, compares or
// prints a document, so that deep enough nesting would overflow the stack.
constexpr int kMaxJsonDepth = 256;

// Parses JSON text (comments allowed); ConfigError names `what` (a file, an
// option) and where and why the text is not JSON, or that it is nested
// deeper than kMaxJsonDepth.
nlohmann::json ParseJson(std::istream& text, const std::string& what);
nlohmann::json ParseJson(const std::string& text, const std::string& what);

// Parses a file as JSON; ConfigError names the file and the parse error.
nlohmann::json ReadJsonFile(const std::string& file);

// Whether a number read as a double names one integer exactly: whole, not
// negative, and at most 2^53, above which not every integer has a double of
// its own. JSON reads 1e9 and 4.0 as doubles.
bool IsExactWholeNumber(double value);

// "a, b, c": the allowed values as messages list them.
std::string CommaJoined(const std::vector<std::string>& names);

// `text` for an error message: bytes that are not printable ASCII escaped
// (\xNN), and cut to about `max_bytes` with "..." when longer, so that a
// message quoting user input stays one readable line.
std::string Printable(std::string_view text, size_t max_bytes = 60);

}  // namespace dmbench
