// Starting a child process of ours (dmbench itself, for sweep points and
// fuzz cases) with its output in a log file.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace dmbench {

// Starts arguments[0] (a path, not searched for) with `arguments`, stdin
// from /dev/null and stdout and stderr into `log` (truncated). Returns its
// pid, which the caller must wait for. Throws std::runtime_error naming the
// program if it cannot be started.
pid_t SpawnLogged(const std::vector<std::string>& arguments, const std::filesystem::path& log);

}  // namespace dmbench
