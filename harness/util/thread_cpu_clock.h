// Seconds of CPU time the calling thread has used.
//
// The simulator runs on one thread, and its speed is best told by the CPU
// time of that thread: on a shared or virtual machine the wall time of a run
// also holds the time other work took the core from it, which moves a run's
// speed by 10-30% from one run to the next.
#pragma once

#include <ctime>

namespace dmbench {

// 0 if the clock cannot be read (no Linux system supports threads without it).
inline double ThreadCpuSeconds() {
  timespec now{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0;
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

}  // namespace dmbench
