// Runs a command in a child process with no input, its output captured,
// under a wall-clock limit: how the command-line fuzz cases run dmbench.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace dmbench::fuzz {

struct ChildOutcome {
  bool timed_out = false;
  bool signaled = false;
  int status = 0;      // the exit status, or the signal
  std::string output;  // stdout and stderr, interleaved
};

// `arguments[0]` is the program; output goes through `log` (overwritten).
ChildOutcome RunChild(const std::vector<std::string>& arguments, const std::filesystem::path& log,
                      double timeout_seconds);

}  // namespace dmbench::fuzz
