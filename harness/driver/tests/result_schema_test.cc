// results/SCHEMA.md and what the runner writes agree, both ways.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "harness/driver/benchmark_runner.h"
#include "harness/driver/tests/driver_test_support.h"

namespace dmbench::driver {
namespace {

using FieldTypes = std::map<std::string, std::string>;  // path -> type

// The two tables of SCHEMA.md: the result's fields, then an op-stats object's.
std::pair<FieldTypes, FieldTypes> ReadSchema() {
  std::ifstream file(std::string(DMBENCH_SOURCE_DIR) + "/results/SCHEMA.md");
  EXPECT_TRUE(file) << "results/SCHEMA.md is missing";
  // Rows look like: | `path` | type | meaning |
  auto parse_row = [](const std::string& line, std::string* path, std::string* type) {
    if (!line.starts_with("| `")) return false;
    const size_t path_end = line.find('`', 3);
    if (path_end == std::string::npos || line.compare(path_end, 4, "` | ") != 0) return false;
    const size_t type_end = line.find(" |", path_end + 4);
    if (type_end == std::string::npos) return false;
    *path = line.substr(3, path_end - 3);
    *type = line.substr(path_end + 4, type_end - path_end - 4);
    return true;
  };
  std::vector<FieldTypes> tables(1);
  std::string line, path, type;
  bool in_table = false;
  while (std::getline(file, line)) {
    if (parse_row(line, &path, &type)) {
      in_table = true;
      tables.back()[path] = type;
    } else if (in_table && !line.starts_with("|")) {
      in_table = false;
      tables.emplace_back();
    }
  }
  EXPECT_GE(tables.size(), 2u);
  return {tables[0], tables[1]};
}

const std::set<std::string> kHistogramKeys = {"count", "mean", "min",  "max",    "p50",
                                              "p90",   "p99",  "p999", "buckets"};

nlohmann::json::json_pointer Pointer(std::string dotted) {
  std::replace(dotted.begin(), dotted.end(), '.', '/');
  return nlohmann::json::json_pointer("/" + dotted);
}

bool HasType(const nlohmann::json& value, const std::string& type) {
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "object" || type == "histogram" || type == "op-stats") return value.is_object();
  if (type == "array") return value.is_array();
  return false;
}

// Leaves of `json` that the schema must describe, as dotted paths; objects
// of type object/array/histogram are leaves.
void Walk(const nlohmann::json& json, const std::string& prefix, const FieldTypes& schema,
          const FieldTypes& op_stats, std::vector<std::string>* problems) {
  for (const auto& [key, value] : json.items()) {
    const std::string path = prefix.empty() ? key : prefix + "." + key;
    std::string pattern = path;
    const std::string by_op = "operations.by_op.";
    if (pattern.starts_with(by_op) && pattern.find('.', by_op.size()) == std::string::npos) {
      pattern = "operations.by_op.<op>";
    }
    auto found = schema.find(pattern);
    if (found == schema.end()) {
      if (value.is_object()) {
        Walk(value, path, schema, op_stats, problems);
      } else {
        problems->push_back("undocumented field " + path);
      }
      continue;
    }
    const std::string& type = found->second;
    if (!HasType(value, type)) problems->push_back(path + " is not of type " + type);
    if (type == "histogram") {
      std::set<std::string> keys;
      for (const auto& [name, ignored] : value.items()) keys.insert(name);
      if (keys != kHistogramKeys) problems->push_back(path + " has the wrong histogram keys");
    }
    if (type == "op-stats") {
      FieldTypes nested;
      for (const auto& [relative, nested_type] : op_stats) {
        nested[path + "." + relative] = nested_type;
      }
      Walk(value, path, nested, {}, problems);
      // Every documented op-stats field is there (write_bytes only with writes,
      // intended_latency_us and censored_arrivals only in open-loop runs).
      for (const auto& [relative, nested_type] : op_stats) {
        if (relative == "write_bytes" || relative == "intended_latency_us" ||
            relative == "censored_arrivals") {
          continue;
        }
        if (!value.contains(Pointer(relative))) {
          problems->push_back(path + "." + relative + " is missing");
        }
      }
    }
  }
}

void ExpectMatchesSchema(const nlohmann::json& result) {
  const auto [schema, op_stats] = ReadSchema();
  std::vector<std::string> problems;
  Walk(result, "", schema, op_stats, &problems);
  for (const auto& [path, type] : schema) {
    if (path.find('<') != std::string::npos) continue;
    const bool optional = path.starts_with("verify.") && path != "verify.enabled" &&
                          !result["verify"]["enabled"].get<bool>();
    if (optional) continue;
    if (!result.contains(Pointer(path))) {
      problems.push_back("documented field " + path + " is missing");
    }
  }
  for (const std::string& problem : problems) ADD_FAILURE() << problem;
}

TEST(ResultSchema, RunResultMatchesTheDocumentedSchema) {
  ExpectMatchesSchema(
      RunBenchmark(test_support::SmallRun("sherman", "write-intensive"), nullptr).result);
  RunConfig config = test_support::SmallRun("sherman", "range-write");
  config.verify = true;
  const BenchmarkOutcome verified = RunBenchmark(config, nullptr);
  EXPECT_TRUE(verified.verified_ok);
  ExpectMatchesSchema(verified.result);
  RunConfig open_loop = test_support::SmallRun("fgplus", "write-intensive");
  open_loop.target_mops = 2;
  const nlohmann::json open_result = RunBenchmark(open_loop, nullptr).result;
  ASSERT_TRUE(open_result["operations"]["overall"].contains("intended_latency_us"));
  ExpectMatchesSchema(open_result);
}

TEST(ResultSchema, AnUndocumentedFieldIsCaught) {
  nlohmann::json result =
      RunBenchmark(test_support::SmallRun("fgplus", "read-intensive"), nullptr).result;
  result["surprise"] = 1;
  const auto [schema, op_stats] = ReadSchema();
  std::vector<std::string> problems;
  Walk(result, "", schema, op_stats, &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "undocumented field surprise");
}

}  // namespace
}  // namespace dmbench::driver
