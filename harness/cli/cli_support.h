// Helpers shared by the dmbench subcommands.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/rdma/sim/nic_profile.h"

namespace dmbench::cli {

// A NIC profile by name (configs/nic/NAME.json) or by path (contains '/' or
// ends in .json). The config directory is $DMBENCH_CONFIG_DIR if set, else
// the source tree's configs/.
rdma::sim::NicProfile LoadNicProfile(const std::string& name_or_path);
std::string ConfigDirectory();

// "8,16,32" -> {8, 16, 32}; ConfigError names `option` and the bad element.
std::vector<uint64_t> ParseUnsignedList(const std::string& option, const std::string& text);
std::vector<double> ParseNumberList(const std::string& option, const std::string& text);

// Writes `document` to `file` (pretty-printed); throws on failure, so no
// result is silently lost.
void WriteJsonFile(const std::string& file, const nlohmann::json& document);

}  // namespace dmbench::cli
