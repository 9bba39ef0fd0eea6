#include "harness/fuzz/child_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "harness/util/child_spawn.h"

namespace dmbench::fuzz {

ChildOutcome RunChild(const std::vector<std::string>& arguments, const std::filesystem::path& log,
                      double timeout_seconds) {
  const pid_t pid = SpawnLogged(arguments, log);
  ChildOutcome outcome;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      outcome.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!outcome.timed_out) {
    outcome.signaled = WIFSIGNALED(status);
    outcome.status = outcome.signaled ? WTERMSIG(status) : WEXITSTATUS(status);
  }
  std::ifstream stream(log, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  outcome.output = text.str();
  return outcome;
}

}  // namespace dmbench::fuzz
