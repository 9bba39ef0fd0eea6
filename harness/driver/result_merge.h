// One result from the results of every compute server of one real-cluster
// run (`dmbench merge`): their statistics combined, and with --verify their
// histories checked together on the cluster-wide clock.
//
// The files are the user's input: every field merge reads is checked, and
// anything missing, of the wrong type or inconsistent between the files is
// a ConfigError naming the file and the field.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dmbench::driver {

// Reads the result files (and the histories they name, beside them) and
// merges them; results/SCHEMA.md describes the merged document.
nlohmann::json MergeResultFiles(const std::vector<std::string>& files);

}  // namespace dmbench::driver
