// The simulator's agenda: events ordered by (time, insertion sequence).
// The sequence number breaks ties in insertion order, which makes the
// simulation deterministic without relying on heap stability.
#pragma once

#include <bit>
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

// A calendar queue: time is cut into slots of 2^kSlotBits ps, and the
// kBuckets slots from the last popped event's on (the window) each have a
// bucket of their events, unordered; events past the window wait in a
// binary heap and move into their bucket as pops move the window on. A bit
// per bucket says which hold events. The earliest event is the least
// (time, sequence) of the first occupied bucket, or the heap's top when the
// window holds none, so, keys being unique, the queue pops the order any
// correct priority queue would. In a simulation, events land a few
// microseconds ahead of the last one popped, one or two a bucket: a push
// appends to its bucket and a pop scans one (the 4-ary heap this replaced
// sifted 32-byte events through three or four levels each way).
//
// Only a pop moves the window, so that Top, which the simulation calls
// before it dispatches the event it popped, leaves room for that event's
// pushes. Pushing an event earlier than the last popped one is allowed (the
// simulation never does) and costs a rebuild of the window.
//
// Thread safety: none; the queue belongs to one simulation.
class EventQueue {
 public:
  EventQueue() : heads_(kBuckets, kEnd) {}

  void Push(SimTime time, EventKind kind, SimClient* client, uint32_t argument = 0,
            uint16_t group = 0) {
    const Event event{time, next_sequence_++, client, argument, group, kind};
    const int64_t slot = SlotOf(time);
    if (size_ == 0 || !InWindow(slot)) {
      PushOutsideWindow(event, slot);
      return;
    }
    ++size_;
    AddToBucket(event, slot);
  }
  bool Empty() const { return size_ == 0; }
  // The earliest event, which Pop returns next; the queue must not be
  // empty. The reference lasts until the next Push or Pop.
  const Event& Top() const {
    if (earliest_bucket_ == kNone) FindEarliest();
    return Earliest();
  }
  // The earliest event; the queue must not be empty.
  Event Pop() {
    if (earliest_bucket_ == kNone) FindEarliest();
    Event event;
    if (earliest_bucket_ == kLater) {
      event = PopLater();
    } else {
      event = nodes_[earliest_node_].event;
      Unlink(earliest_bucket_, earliest_node_);
    }
    --size_;
    earliest_bucket_ = kNone;
    // Every bucket before the popped event's slot is empty: the window
    // starts there now, and takes in the waiting events it reaches.
    first_slot_ = SlotOf(event.time);
    if (!later_.empty() && InWindow(SlotOf(later_.front().time))) TakeInReachedEvents();
    return event;
  }
  uint64_t pushed() const { return next_sequence_; }

 private:
  static constexpr int kSlotBits = 14;  // 16.4 ns
  static constexpr size_t kBuckets = 1024;
  static constexpr size_t kWords = kBuckets / 64;
  static constexpr size_t kNone = ~size_t{0};
  static constexpr size_t kLater = kNone - 1;   // the earliest is later_'s top
  static constexpr uint32_t kEnd = UINT32_MAX;  // no node

  static int64_t SlotOf(SimTime time) { return time >> kSlotBits; }
  static size_t BucketOf(int64_t slot) {
    return static_cast<size_t>(static_cast<uint64_t>(slot) % kBuckets);
  }
  static bool Earlier(const Event& a, const Event& b) {
    return a.time != b.time ? a.time < b.time : a.sequence < b.sequence;
  }
  // later_'s order: std::push_heap keeps the greatest on top, so its "less"
  // is "later".
  static bool Later(const Event& a, const Event& b) { return Earlier(b, a); }
  // 0 <= slot - first_slot_ < kBuckets, in one unsigned compare (slots lie
  // within 2^49 of 0, so a slot before the window wraps to a huge difference).
  bool InWindow(int64_t slot) const {
    return static_cast<uint64_t>(slot) - static_cast<uint64_t>(first_slot_) < kBuckets;
  }
  // The earliest event, once found.
  const Event& Earliest() const {
    return earliest_bucket_ == kLater ? later_.front() : nodes_[earliest_node_].event;
  }

  // Puts an event of a slot in the window into its bucket, and keeps the
  // known earliest event up to date.
  void AddToBucket(const Event& event, int64_t slot) {
    const size_t index = BucketOf(slot);
    if (free_ == kEnd) AddNode();
    const uint32_t node = free_;
    free_ = nodes_[node].next;
    nodes_[node] = {event, heads_[index]};
    heads_[index] = node;
    occupied_[index / 64] |= uint64_t{1} << (index % 64);
    if (earliest_bucket_ != kNone && Earlier(event, Earliest())) {
      earliest_bucket_ = index;
      earliest_node_ = node;
    }
  }
  // Takes `node` out of bucket `index`'s list and frees it.
  void Unlink(size_t index, uint32_t node) {
    const uint32_t next = nodes_[node].next;
    if (heads_[index] == node) {
      heads_[index] = next;
      if (next == kEnd) occupied_[index / 64] &= ~(uint64_t{1} << (index % 64));
    } else {
      uint32_t previous = heads_[index];
      while (nodes_[previous].next != node) previous = nodes_[previous].next;
      nodes_[previous].next = next;
    }
    nodes_[node].next = free_;
    free_ = node;
  }

  // The first occupied bucket from the window's first on, in slot order
  // (round the ring), or kNone.
  size_t FirstOccupiedBucket() const {
    const size_t start = BucketOf(first_slot_);
    size_t word = start / 64;
    uint64_t bits = occupied_[word] & (~uint64_t{0} << (start % 64));
    for (size_t step = 0; step <= kWords; ++step) {
      if (bits != 0) return word * 64 + static_cast<size_t>(std::countr_zero(bits));
      word = (word + 1) % kWords;
      bits = occupied_[word];
    }
    return kNone;
  }

  // Notes where the earliest event is (the queue is not empty): every event
  // in the window is earlier than every waiting one.
  void FindEarliest() const {
    const size_t index = FirstOccupiedBucket();
    if (index == kNone) {
      earliest_bucket_ = kLater;
      return;
    }
    uint32_t earliest = heads_[index];
    for (uint32_t node = nodes_[earliest].next; node != kEnd; node = nodes_[node].next) {
      if (Earlier(nodes_[node].event, nodes_[earliest].event)) earliest = node;
    }
    earliest_bucket_ = index;
    earliest_node_ = earliest;
  }

  // Paths off the common case (event_queue.cc).
  // A push into an empty queue, past the window, or before it.
  void PushOutsideWindow(const Event& event, int64_t slot);
  // Moves the waiting events that the window reaches into their buckets.
  void TakeInReachedEvents();
  // Removes and returns later_'s top.
  Event PopLater();
  // Adds a free node (the pool grows to the most events ever in the window).
  void AddNode();

  // The window's events, in nodes of one pool, reused last freed first so
  // that the few a simulation keeps stay in the CPU's cache; each bucket a
  // list of them. (A vector per bucket scattered the events over the heap:
  // 4% more L1 misses per write-intensive operation than the 4-ary heap.)
  struct Node {
    Event event;
    uint32_t next;  // in its bucket's list, or the free list
  };
  std::vector<Node> nodes_;
  uint32_t free_ = kEnd;            // the free list's first node
  std::vector<uint32_t> heads_;     // each bucket's first node, round the ring
  uint64_t occupied_[kWords] = {};  // a bit per non-empty bucket
  int64_t first_slot_ = 0;          // the window's first slot
  // Events past the window: a binary min-heap by Earlier (event_queue.cc).
  std::vector<Event> later_;
  // Where the earliest event is, when known (kNone: not known). Mutable:
  // Top finds it, which changes no event.
  mutable size_t earliest_bucket_ = kNone;
  mutable uint32_t earliest_node_ = kEnd;
  size_t size_ = 0;
  uint64_t next_sequence_ = 0;
};

}  // namespace dmbench::rdma::sim
