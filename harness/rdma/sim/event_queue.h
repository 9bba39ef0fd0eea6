// The simulator's agenda: events ordered by (time, insertion sequence).
// The sequence number breaks ties in insertion order, which makes the
// simulation deterministic without relying on heap stability.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/rdma/sim/sim_time.h"

namespace dmbench::rdma::sim {

class SimClient;

enum class EventKind : uint8_t {
  kStart,          // a client's first resumption
  kResume,         // a batch completed, or a Yield/Unpark wake-up
  kExecuteRead,    // a READ's DMA has finished: copy (possibly torn) data
  kExecuteWrite,   // a WRITE's DMA starts: apply it, logging what it overwrote
  kAtomicArrival,  // an atomic reaches the NIC's atomic unit
  kBucketRelease,  // an atomic bucket frees up for its next waiter
  kDetachedDone,   // a batch posted without waiting has had its last response
};

struct Event {
  SimTime time;
  uint64_t sequence;
  SimClient* client;
  uint32_t argument;  // work-request index, or bucket index
  uint16_t group;     // the client's batch, or for kBucketRelease the NIC
  EventKind kind;
};

// A 4-ary min-heap on (time, sequence). Keys are unique, so any correct heap
// pops the same order as any other; four children per node halve the depth
// of a binary heap, and a pop's sift-down compares siblings that share a
// cache line (the event loop spent about a tenth of its time in
// std::priority_queue). Elements move into a hole rather than being swapped.
class EventQueue {
 public:
  void Push(SimTime time, EventKind kind, SimClient* client, uint32_t argument = 0,
            uint16_t group = 0) {
    const Event event{time, next_sequence_++, client, argument, group, kind};
    size_t hole = heap_.size();
    heap_.emplace_back();
    while (hole > 0) {
      const size_t parent = (hole - 1) / kArity;
      if (!Earlier(event, heap_[parent])) break;
      heap_[hole] = heap_[parent];
      hole = parent;
    }
    heap_[hole] = event;
  }
  bool Empty() const { return heap_.empty(); }
  // The earliest event, which Pop returns next; the queue must not be empty.
  const Event& Top() const { return heap_.front(); }
  // The earliest event; the queue must not be empty.
  Event Pop() {
    const Event top = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    const size_t size = heap_.size();
    if (size == 0) return top;
    size_t hole = 0;
    while (true) {
      const size_t first = hole * kArity + 1;
      size_t best = first;
      if (first + kArity <= size) {
        // All four children: two pairs, then their winners, with no loop.
        // Which sibling is earlier is a coin flip, so each choice is
        // arithmetic on the comparison rather than a branch on it.
        static_assert(kArity == 4);
        const size_t left = first + Earlier(heap_[first + 1], heap_[first]);
        const size_t right = first + 2 + Earlier(heap_[first + 3], heap_[first + 2]);
        best = left + (right - left) * Earlier(heap_[right], heap_[left]);
      } else {
        if (first >= size) break;
        for (size_t child = first + 1; child < size; ++child) {
          if (Earlier(heap_[child], heap_[best])) best = child;
        }
      }
      if (!Earlier(heap_[best], last)) break;
      heap_[hole] = heap_[best];
      hole = best;
    }
    heap_[hole] = last;
    return top;
  }
  uint64_t pushed() const { return next_sequence_; }

 private:
  static constexpr size_t kArity = 4;

  static bool Earlier(const Event& a, const Event& b) {
    return a.time != b.time ? a.time < b.time : a.sequence < b.sequence;
  }

  std::vector<Event> heap_;
  uint64_t next_sequence_ = 0;
};

}  // namespace dmbench::rdma::sim
