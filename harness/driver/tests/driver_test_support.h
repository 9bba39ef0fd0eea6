// A small, fast run config for driver tests: 2 machines, 2 x 4 clients each.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "harness/driver/run_config.h"
#include "harness/util/tests/scratch_file.h"

namespace dmbench::driver::test_support {

inline RunConfig SmallRun(const std::string& index_type, const std::string& mix) {
  nlohmann::json document = {{"name", "test"},
                             {"index", {{"preset", index_type}, {"cache_mib", 1}}},
                             {"topology",
                              {{"memory_servers", 2},
                               {"compute_servers", 2},
                               {"threads_per_compute_server", 2},
                               {"coroutines_per_thread", 4},
                               {"host_memory_mib", 64},
                               {"chunk_mib", 1}}},
                             {"workload", {{"mix", mix}, {"keys", 20000}}},
                             {"run", {{"warmup_ms", 0.1}, {"measure_ms", 0.5}, {"seed", 3}}}};
  return RunConfig::FromJson(document);
}

// A result without what varies from run to run of the same config: its
// wall-clock section.
inline nlohmann::json WithoutWallClock(nlohmann::json result) {
  result.erase("wall_clock");
  return result;
}

// Writes `document` to a file of the test's temporary directory; its path.
inline std::string WriteTemp(const std::string& name, const nlohmann::json& document) {
  return WriteScratchFile(name, document.dump());
}

}  // namespace dmbench::driver::test_support
