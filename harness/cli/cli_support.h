// Helpers shared by the dmbench subcommands.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dmbench::cli {

// "8,16,32" -> {8, 16, 32}; ConfigError names `option` and the bad element.
std::vector<uint64_t> ParseUnsignedList(const std::string& option, const std::string& text);
std::vector<double> ParseNumberList(const std::string& option, const std::string& text);

// Writes `document` to `file` (pretty-printed); throws on failure, so no
// result is silently lost.
void WriteJsonFile(const std::string& file, const nlohmann::json& document);

}  // namespace dmbench::cli
