#include "harness/driver/build_info.h"

#include <array>
#include <cstdio>
#include <memory>

namespace dmbench::driver {

namespace {

// Runs a git command in the source tree; empty on any failure.
std::string Git(const std::string& arguments) {
  const std::string command =
      "git -C '" + std::string(DMBENCH_SOURCE_DIR) + "' " + arguments + " 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string output;
  std::array<char, 256> buffer;
  while (fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) output += buffer.data();
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  return output;
}

}  // namespace

SourceRevision CurrentRevision() {
  SourceRevision revision;
  const std::string commit = Git("rev-parse HEAD");
  if (commit.size() != 40) return revision;
  revision.commit = commit;
  revision.dirty = !Git("status --porcelain --untracked-files=no").empty();
  return revision;
}

}  // namespace dmbench::driver
