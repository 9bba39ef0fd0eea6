// The simulator's agenda: events ordered by (time, insertion sequence).
// The sequence number breaks ties in insertion order, which makes the
// simulation deterministic without relying on heap stability.
#pragma once

#include <cstdint>
#include <queue>
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

class EventQueue {
 public:
  void Push(SimTime time, EventKind kind, SimClient* client, uint32_t argument = 0,
            uint16_t group = 0) {
    heap_.push(Event{time, next_sequence_++, client, argument, group, kind});
  }
  bool Empty() const { return heap_.empty(); }
  Event Pop() {
    Event event = heap_.top();
    heap_.pop();
    return event;
  }
  uint64_t pushed() const { return next_sequence_; }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time != b.time ? a.time > b.time : a.sequence > b.sequence;
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> heap_;
  uint64_t next_sequence_ = 0;
};

}  // namespace dmbench::rdma::sim
