#include "harness/util/huge_page_heap.h"

#include <limits.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace dmbench {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

// Whether transparent huge pages can back a region that asks for them:
// the kernel's policy is "always" or "madvise", not "never" (the selected
// one is bracketed). False when the kernel has none.
bool KernelOffersHugePages() {
  std::ifstream policy("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string text;
  return std::getline(policy, text) && text.find("[never]") == std::string::npos &&
         text.find('[') != std::string::npos;
}

constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#else
    false;
#endif

}  // namespace

std::optional<std::string> TunablesWithHugePageHeap(const char* current) {
  const std::string tunables = current == nullptr ? "" : current;
  // Tunables are name=value pairs separated by colons.
  for (size_t begin = 0; begin <= tunables.size();) {
    size_t end = tunables.find(':', begin);
    if (end == std::string::npos) end = tunables.size();
    const std::string pair = tunables.substr(begin, end - begin);
    if (pair.substr(0, pair.find('=')) == kTunable) return std::nullopt;
    begin = end + 1;
  }
  return (tunables.empty() ? "" : tunables + ":") + kTunable + "=1";
}

void ReexecWithHugePageHeap(char** argv) {
  if (kSanitized || !KernelOffersHugePages()) return;
  const std::optional<std::string> tunables =
      TunablesWithHugePageHeap(std::getenv("GLIBC_TUNABLES"));
  if (!tunables) return;
  // The binary's own path, not /proc/self/exe, so that the process keeps
  // its name (ps, top and perf show the name exec was given).
  std::string binary(PATH_MAX, '\0');
  const ssize_t length = readlink("/proc/self/exe", binary.data(), binary.size());
  if (length <= 0 || static_cast<size_t>(length) >= binary.size()) return;
  binary.resize(static_cast<size_t>(length));
  if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  execv(binary.c_str(), argv);
  // Still here: the exec failed; run without.
}

}  // namespace dmbench
