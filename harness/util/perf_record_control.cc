#include "harness/util/perf_record_control.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "harness/rdma/errors.h"

namespace dmbench {

namespace {

const char kUsage[] =
    "--perf-control takes CTL,ACK: the FIFOs of perf record -D -1 --control fifo:CTL,ACK";

void RequireFifo(const std::string& path) {
  struct stat status {};
  if (stat(path.c_str(), &status) != 0) {
    throw ConfigError(std::string(kUsage) + "; cannot see '" + path + "': " + std::strerror(errno));
  }
  if (!S_ISFIFO(status.st_mode)) {
    throw ConfigError(std::string(kUsage) + "; '" + path + "' is not a FIFO (mkfifo makes one)");
  }
}

// Writes all of `line`, reporting a reader that went away as an error rather
// than dying of SIGPIPE: the signal is held for this thread while it writes
// and a pending one is taken back before the mask is restored.
bool WriteLine(int descriptor, const std::string& line) {
  sigset_t pipe_signal;
  sigset_t previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  size_t done = 0;
  bool written = true;
  while (done < line.size()) {
    const ssize_t wrote = write(descriptor, line.data() + done, line.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      written = false;
      break;
    }
    done += static_cast<size_t>(wrote);
  }
  if (!written) {
    const timespec no_wait{0, 0};
    while (sigtimedwait(&pipe_signal, nullptr, &no_wait) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return written;
}

}  // namespace

PerfRecordControl::PerfRecordControl(const std::string& fifos) {
  const size_t comma = fifos.find(',');
  if (comma == std::string::npos || comma == 0 || comma + 1 == fifos.size() ||
      fifos.find(',', comma + 1) != std::string::npos) {
    throw ConfigError(std::string(kUsage) + ", got '" + fifos + "'");
  }
  control_path_ = fifos.substr(0, comma);
  acknowledge_path_ = fifos.substr(comma + 1);
  RequireFifo(control_path_);
  RequireFifo(acknowledge_path_);
  // Non-blocking, so that a FIFO nobody reads is an error now rather than a
  // process that waits for ever.
  control_ = open(control_path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (control_ < 0) {
    const std::string why = errno == ENXIO ? "no process reads it" : std::strerror(errno);
    throw ConfigError(std::string(kUsage) + "; cannot write to '" + control_path_ + "': " + why);
  }
  // Blocking writes from here on: a line is far below a FIFO's buffer.
  fcntl(control_, F_SETFL, fcntl(control_, F_GETFL) & ~O_NONBLOCK);
  acknowledge_ = open(acknowledge_path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (acknowledge_ < 0) {
    const std::string why = std::strerror(errno);
    close(control_);
    throw ConfigError(std::string(kUsage) + "; cannot read '" + acknowledge_path_ + "': " + why);
  }
}

PerfRecordControl::~PerfRecordControl() {
  close(control_);
  close(acknowledge_);
}

void PerfRecordControl::Send(const std::string& command) {
  if (!WriteLine(control_, command + "\n")) {
    throw std::runtime_error("perf record stopped reading '" + control_path_ + "' before '" +
                             command + "'");
  }
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error("perf record did not acknowledge '" + command + "' on '" +
                             acknowledge_path_ + "': " + why);
  };
  std::string answer;
  const time_t deadline = time(nullptr) + kAcknowledgeSeconds;
  while (answer.empty() || answer.back() != '\n') {
    const time_t left = deadline - time(nullptr);
    if (left <= 0) fail("no answer within " + std::to_string(kAcknowledgeSeconds) + " s");
    pollfd ready{acknowledge_, POLLIN, 0};
    const int polled = poll(&ready, 1, static_cast<int>(left) * 1000);
    if (polled < 0 && errno == EINTR) continue;
    if (polled < 0) fail(std::strerror(errno));
    if (polled == 0) continue;
    char byte = 0;
    const ssize_t got = read(acknowledge_, &byte, 1);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (got < 0) fail(std::strerror(errno));
    if (got == 0) fail("perf record closed it");
    // perf writes its "ack\n" with the string's terminating NUL, which then
    // leads the next answer.
    if (byte != '\0') answer += byte;
  }
  if (answer != "ack\n") fail("it answered '" + answer.substr(0, answer.size() - 1) + "'");
}

}  // namespace dmbench
