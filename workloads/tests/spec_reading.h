// A workload spec read from a config's JSON, as the tests of its fields
// read one: the spec, or the message of the ConfigError a bad one raises.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"
#include "workloads/workload_spec.h"

namespace dmbench::workloads::test_support {

inline WorkloadSpec ReadSpec(const nlohmann::json& document) {
  WorkloadSpec spec;
  JsonObjectReader reader(document, "workload");
  spec.ReadJson(reader);
  return spec;
}

// "no error" when the document is a valid spec.
inline std::string SpecErrorOf(const nlohmann::json& document) {
  try {
    ReadSpec(document);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace dmbench::workloads::test_support
