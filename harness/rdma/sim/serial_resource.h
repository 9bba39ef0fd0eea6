// A resource that serves one thing at a time (a link direction, a NIC's
// message engine, a PCIe direction).
//
// The simulator reserves a resource when work is posted, which may be before
// the work gets there, and work posted later may get there earlier (a
// response reserved for when its DMA ends, a request reserved now). So the
// resource keeps its busy intervals and gives each reservation the first idle
// gap at or after its arrival that is long enough: a link is never left idle
// in front of work that is waiting for it.
//
// Thread safety: none; a resource belongs to the simulation that owns it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "harness/rdma/sim/sim_time.h"

namespace dmbench::rdma::sim {

class SerialResource {
 public:
  SerialResource() : starts_(kInitialCapacity, kNever), ends_(kInitialCapacity, kNever) {}

  // Reserves `service` at or after `arrival` (>= now, the current simulated
  // time); returns when the work completes. Work of no service reserves
  // nothing but still waits for an idle instant: it does not pass work that
  // holds the resource when it arrives. `now` must not go back from one call
  // to the next.
  SimTime Serve(SimTime arrival, SimTime service, SimTime now) {
    // Most work arrives after everything reserved so far: it goes at the end,
    // with no search. Intervals that ended before now are dropped only now
    // and then; until they are, they sit before every arrival (>= now), so no
    // search or gap ever involves them.
    if (arrival >= last_end_) {
      const SimTime end = arrival + service;
      if (service == 0) return end;
      // (Never extending one before head_, which DropEnded may erase.)
      if (last_end_ == arrival && size_ > head_) {
        ends_[size_ - 1] = end;
      } else {
        if (size_ - head_ >= kCompactAbove) DropEnded(now);
        if (size_ == starts_.size()) Grow();
        starts_[size_] = arrival;
        ends_[size_] = end;
        ++size_;
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
    if (size_ - head_ >= kCompactAbove) DropEnded(now);
    // The first busy interval and every one after it end after `arrival`
    // (ends rise), so the gap before the first opens at `arrival` and each
    // later one where the interval before it ends. Work fits in a gap that
    // it ends by; work of no service needs a gap of some length, since the
    // interval holds the resource from its start. (The arrays and size_ in
    // locals: nothing is stored until the search ends.)
    const SimTime* const starts = starts_.data();
    const SimTime* const ends = ends_.data();
    const size_t size = size_;
    const SimTime need = service > 0 ? service : 1;
    size_t at = FirstBusyAt(arrival);
    SimTime start = arrival;
    for (; at < size && start + need > starts[at]; ++at) start = ends[at];
    const SimTime end = start + service;
    if (service == 0) return end;
    // Insert [start, end) before `at`, merging with touching neighbours.
    // Intervals are never merged with one before head_: DropEnded erases those.
    const bool joins_previous = at > head_ && ends_[at - 1] == start;
    const bool joins_next = at < size_ && starts_[at] == end;
    if (joins_previous && joins_next) {
      ends_[at - 1] = ends_[at];
      EraseAt(at);
    } else if (joins_previous) {
      ends_[at - 1] = end;
    } else if (joins_next) {
      starts_[at] = start;
    } else {
      InsertAt(at, start, end);
    }
    last_end_ = ends_[size_ - 1];
    return end;
  }

  // Before index kSentinels sit intervals that end at kNever, so that every
  // block FirstBusyAt reads lies inside the arrays; after size_ there is room
  // for a block that InsertAt moves up by one.
  static constexpr SimTime kNever = std::numeric_limits<SimTime>::min();
  static constexpr size_t kBlock = 8;
  static constexpr size_t kSentinels = kBlock;
  static constexpr size_t kRoomAfterLast = kBlock + 1;
  static constexpr size_t kInitialCapacity = 64;
  // How many intervals may pile up after head_ before appending work drops the
  // ended ones: enough that dropping is rare, few enough to stay in cache.
  static constexpr size_t kCompactAbove = 32;
  // How many ended intervals DropEnded leaves in place before it moves the
  // rest down to the front: few, so that a resource keeps reusing the same
  // few cache lines instead of sliding through its arrays.
  static constexpr size_t kEraseAbove = 16;

  // The first interval still busy at `time`; the last one must be. Ends are
  // sorted, and ended ones (all those before head_, the sentinels among
  // them) end at or before `time`. Work lands a few intervals from the end
  // (six on average, of eighteen, in a 10 M-key run), so the answer is
  // looked for among the eight before the last interval known busy, and
  // that one, by bisection: four compares that choose an index, with no
  // branch on them. Only if all nine are busy does it look a block further
  // back. (Counting the busy ones of the eight, as it did before, took
  // twice the instructions; a walk back that stops at the first ended one
  // branches on each.)
  size_t FirstBusyAt(SimTime time) const {
    const SimTime* const ends = ends_.data();
    size_t at = size_ - 1;
    for (;;) {
      const size_t first = at - kBlock;
      size_t busy = first;
      busy += ends[busy + 3] <= time ? 4 : 0;
      busy += ends[busy + 1] <= time ? 2 : 0;
      busy += ends[busy] <= time ? 1 : 0;
      busy += ends[busy] <= time ? 1 : 0;
      if (busy != first) return busy;
      at = first;
    }
  }

  // Moves [at, size_) up by one and puts [start, end) at `at`. The common
  // case, at most a block to move, moves a whole block: a copy of fixed size
  // compiles to a few vector moves, where one of the moved length branches.
  void InsertAt(size_t at, SimTime start, SimTime end) {
    if (size_ + kRoomAfterLast > starts_.size()) Grow();
    if (size_ - at <= kBlock) {
      MoveBlockUp(&starts_[at]);
      MoveBlockUp(&ends_[at]);
    } else {
      MoveUpLong(at);
    }
    starts_[at] = start;
    ends_[at] = end;
    ++size_;
  }

  // The longer moves (a quarter of the insertions), EraseAt and DropEnded
  // are out of line: inlined, their registers made ServeInGap save six on
  // every call instead of four (callgrind: 0.4% and 0.9% fewer instructions
  // per read- and write-intensive operation without them).
  [[gnu::noinline]] void MoveUpLong(size_t at) {
    std::copy_backward(starts_.begin() + at, starts_.begin() + size_, starts_.begin() + size_ + 1);
    std::copy_backward(ends_.begin() + at, ends_.begin() + size_, ends_.begin() + size_ + 1);
  }

  // (Every value loaded before any is stored, with no loop: GCC calls
  // memmove for an overlapping move even of fixed size, and spills a copy
  // through an array or vector to the stack.)
  static void MoveBlockUp(SimTime* first) {
    static_assert(kBlock == 8);
    const SimTime v0 = first[0], v1 = first[1], v2 = first[2], v3 = first[3];
    const SimTime v4 = first[4], v5 = first[5], v6 = first[6], v7 = first[7];
    first[1] = v0, first[2] = v1, first[3] = v2, first[4] = v3;
    first[5] = v4, first[6] = v5, first[7] = v6, first[8] = v7;
  }

  [[gnu::noinline]] void EraseAt(size_t at) {
    std::copy(starts_.begin() + at + 1, starts_.begin() + size_, starts_.begin() + at);
    std::copy(ends_.begin() + at + 1, ends_.begin() + size_, ends_.begin() + at);
    --size_;
  }

  void Grow() {
    starts_.resize(starts_.size() * 2, kNever);
    ends_.resize(ends_.size() * 2, kNever);
  }

  // Moves head_ past the intervals that ended by `now`; erases them once
  // kEraseAbove have piled up before it. Intervals that ended by `now` may also stay
  // past head_ for a while: every arrival is at or after now, so no search
  // stops in them and no gap before one is ever taken; and one that touches a
  // new interval's start (possible only when the new work starts at now)
  // merges with it into an interval busy at exactly the same instants from
  // now on.
  [[gnu::noinline]] void DropEnded(SimTime now) {
    // (A local index: the arrays' stores could alias head_, which would keep
    // it in memory through the loop.)
    size_t head = head_;
    while (head < size_ && ends_[head] <= now) ++head;
    head_ = head;
    if (head_ - kSentinels >= kEraseAbove) {
      const size_t kept = size_ - head_;
      std::copy(starts_.begin() + head_, starts_.begin() + size_, starts_.begin() + kSentinels);
      std::copy(ends_.begin() + head_, ends_.begin() + size_, ends_.begin() + kSentinels);
      head_ = kSentinels;
      size_ = kSentinels + kept;
    }
  }

  // [starts_[i], ends_[i]) for i in [kSentinels, size_): sorted, disjoint.
  // Both arrays keep their whole length, and everything from size_ on is
  // scratch.
  std::vector<SimTime> starts_;
  std::vector<SimTime> ends_;
  size_t size_ = kSentinels;
  size_t head_ = kSentinels;  // intervals before it have ended
  // ends_[size_ - 1] once there is an interval: the common case, work after
  // everything reserved, is decided without loading the intervals.
  SimTime last_end_ = kNever;
};

}  // namespace dmbench::rdma::sim
