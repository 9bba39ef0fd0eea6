// Switches a `perf record` that runs this process on and off, so that it
// samples one phase of the run and not the set-up around it.
//
// perf record's control protocol (perf-record(1), --control): perf reads
// commands ("enable", "disable"), a line each, from a control FIFO and
// answers each with "ack\n" on an acknowledgement FIFO. Started as
//
//   perf record -D -1 --control fifo:CTL,ACK -- dmbench run ... --perf-control CTL,ACK
//
// perf samples nothing until Enable() and nothing after Disable(). Waiting
// for each acknowledgement makes the switch exact: no sample of the phase is
// lost, and none from outside it is taken, once Enable() has returned.
//
// One thread uses an object; it owns its two descriptors until destroyed.
#pragma once

#include <string>

namespace dmbench {

class PerfRecordControl {
 public:
  // `fifos`: "CTL,ACK", the paths given to perf record --control fifo:.
  // Throws ConfigError, naming the path and what is wrong, when the text is
  // not two paths, a path is not a FIFO, or no perf record reads it: opening
  // never waits for a reader that may not come.
  explicit PerfRecordControl(const std::string& fifos);
  ~PerfRecordControl();
  PerfRecordControl(const PerfRecordControl&) = delete;
  PerfRecordControl& operator=(const PerfRecordControl&) = delete;

  // Each sends its command and returns once perf acknowledged it. Throws
  // std::runtime_error if perf is gone or does not answer within
  // kAcknowledgeSeconds: a profile missing its switch would silently cover
  // the wrong phase.
  void Enable() { Send("enable"); }
  void Disable() { Send("disable"); }

  static constexpr int kAcknowledgeSeconds = 30;

 private:
  void Send(const std::string& command);

  std::string control_path_;
  std::string acknowledge_path_;
  int control_ = -1;
  int acknowledge_ = -1;
};

}  // namespace dmbench
