// The field lists are the one declaration of the run config: what is read,
// what is written and what is documented all come from them.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "harness/driver/run_config.h"
#include "harness/driver/run_config_reference.h"

namespace dmbench::driver {
namespace {

// configs/README.md is generated; a field added without regenerating it
// fails here with the command to run.
TEST(RunConfigReference, ShippedDocumentIsTheGeneratedOne) {
  std::ifstream shipped(std::string(DMBENCH_SOURCE_DIR) + "/configs/README.md");
  std::stringstream text;
  text << shipped.rdbuf();
  EXPECT_EQ(text.str(), RunConfigReferenceMarkdown())
      << "regenerate it: dmbench config --describe > configs/README.md";
}

// Every key of every section of a resolved config is documented, and the
// resolved config reads back to itself.
TEST(RunConfigReference, EveryWrittenFieldIsDocumentedAndReadsBack) {
  const std::string reference = RunConfigReferenceMarkdown();
  nlohmann::json verbs = RunConfig::FromJson({{"backend", {{"type", "verbs"}}}}).ToJson();
  for (const nlohmann::json& resolved :
       {RunConfig::FromJson(nlohmann::json::object()).ToJson(),
        RunConfig::FromJson({{"index", {{"preset", "fgplus"}}}}).ToJson(),
        RunConfig::FromJson(
            {{"backend",
              {{"dma_read_order", "random"}, {"nic_overrides", {{"processing_units", 0}}}}}})
            .ToJson(),
        verbs}) {
    for (const auto& [section, fields] : resolved.items()) {
      if (!fields.is_object()) continue;
      for (const auto& [key, value] : fields.items()) {
        if (key == "type") continue;  // the backend's kind, documented in its intro
        EXPECT_NE(reference.find("| `" + key + "` |"), std::string::npos) << section << "." << key;
      }
    }
    EXPECT_EQ(RunConfig::FromJson(resolved).ToJson(), resolved) << resolved.dump();
  }
}

}  // namespace
}  // namespace dmbench::driver
