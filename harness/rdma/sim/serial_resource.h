// A resource that serves one thing at a time (a link direction, a NIC's
// message engine, a PCIe direction).
//
// The simulator reserves a resource when work is posted, which may be before
// the work gets there, and work posted later may get there earlier (a
// response reserved for when its DMA ends, a request reserved now). So the
// resource keeps its busy intervals and gives each reservation the first idle
// gap at or after its arrival that is long enough: a link is never left idle
// in front of work that is waiting for it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "harness/rdma/sim/sim_time.h"

namespace dmbench::rdma::sim {

class SerialResource {
 public:
  // Reserves `service` at or after `arrival` (>= now, the current simulated
  // time); returns when the work completes. Work of no service reserves
  // nothing but still waits for an idle instant: it does not pass work that
  // holds the resource when it arrives.
  SimTime Serve(SimTime arrival, SimTime service, SimTime now) {
    // Most work arrives after everything reserved so far: it goes at the end,
    // with no search. Intervals that ended before now are dropped only now
    // and then; until they are, they sit before every arrival (>= now), so no
    // search or gap ever involves them.
    if (busy_intervals_.empty() || arrival >= last_end_) {
      const SimTime end = arrival + service;
      if (service == 0) return end;
      if (!busy_intervals_.empty() && last_end_ == arrival) {
        busy_intervals_.back().second = end;
      } else {
        if (busy_intervals_.size() - head_ >= kCompactAbove) DropEnded(now);
        busy_intervals_.push_back({arrival, end});
      }
      last_end_ = end;
      return end;
    }
    return ServeInGap(arrival, service, now);
  }

 private:
  // Serve for work that arrives before the last reservation ends. Kept out
  // of line, so that Serve, whose common case is a few instructions, inlines
  // without the registers this path saves on entry.
  [[gnu::noinline]] SimTime ServeInGap(SimTime arrival, SimTime service, SimTime now) {
    // The last interval is still busy at `arrival` (>= now), so it survives
    // DropEnded. Intervals are disjoint and sorted, so their ends are too:
    // find the first one still busy at `arrival`, then the first gap that fits.
    // Ended intervals left before it change no answer (see DropEnded), so they
    // are dropped only when many have piled up.
    if (busy_intervals_.size() - head_ >= kCompactAbove) DropEnded(now);
    SimTime start = arrival;
    size_t at = FirstBusyAt(arrival);
    for (; at < busy_intervals_.size(); ++at) {
      const auto [busy_start, busy_end] = busy_intervals_[at];
      // Fits in the gap before this interval (which, for no service, must
      // not be a gap of no length: the interval holds the resource then).
      if (start < busy_start && start + service <= busy_start) break;
      start = std::max(start, busy_end);
    }
    const SimTime end = start + service;
    if (service == 0) return end;
    // Insert [start, end) before `at`, merging with touching neighbours.
    const bool joins_previous = at > head_ && busy_intervals_[at - 1].second == start;
    const bool joins_next = at < busy_intervals_.size() && busy_intervals_[at].first == end;
    if (joins_previous && joins_next) {
      busy_intervals_[at - 1].second = busy_intervals_[at].second;
      busy_intervals_.erase(busy_intervals_.begin() + at);
    } else if (joins_previous) {
      busy_intervals_[at - 1].second = end;
    } else if (joins_next) {
      busy_intervals_[at].first = start;
    } else {
      busy_intervals_.insert(busy_intervals_.begin() + at, {start, end});
    }
    last_end_ = busy_intervals_.back().second;
    return end;
  }

  // How many intervals may pile up after head_ before appending work drops the
  // ended ones: enough that dropping is rare, few enough to stay in cache.
  static constexpr size_t kCompactAbove = 32;
  static constexpr size_t kWalkBack = 8;

  // The first interval after head_ that is still busy at `time`; the last one
  // must be. Work lands a few intervals from the end (six on average, of
  // eighteen, in a 10 M-key run), so the search walks back from there before
  // it bisects the rest: a bisection's branches are coin flips.
  size_t FirstBusyAt(SimTime time) const {
    size_t at = busy_intervals_.size() - 1;
    for (size_t step = 0; step < kWalkBack; ++step) {
      if (at == head_ || busy_intervals_[at - 1].second <= time) return at;
      --at;
    }
    return static_cast<size_t>(
        std::upper_bound(busy_intervals_.begin() + static_cast<std::ptrdiff_t>(head_),
                         busy_intervals_.begin() + static_cast<std::ptrdiff_t>(at), time,
                         [](SimTime t, const std::pair<SimTime, SimTime>& interval) {
                           return t < interval.second;
                         }) -
        busy_intervals_.begin());
  }

  // Moves head_ past the intervals that ended by `now`; erases them once they
  // are most of the vector. Intervals that ended by `now` may also stay past
  // head_ for a while: every arrival is at or after now, so no search stops in
  // them and no gap before one is ever taken; and one that touches a new
  // interval's start (possible only when the new work starts at now) merges
  // with it into an interval busy at exactly the same instants from now on.
  void DropEnded(SimTime now) {
    // (A local index: the vector's stores could alias head_, which would keep
    // it in memory through the loop.)
    size_t head = head_;
    while (head < busy_intervals_.size() && busy_intervals_[head].second <= now) ++head;
    head_ = head;
    if (head_ > 64 && head_ * 2 > busy_intervals_.size()) {
      busy_intervals_.erase(busy_intervals_.begin(), busy_intervals_.begin() + head_);
      head_ = 0;
    }
  }

  std::vector<std::pair<SimTime, SimTime>> busy_intervals_;  // sorted, disjoint
  size_t head_ = 0;                                          // intervals before it have ended
  // busy_intervals_.back().second when not empty: the common case, work after
  // everything reserved, is decided without loading the intervals.
  SimTime last_end_ = 0;
};

}  // namespace dmbench::rdma::sim
