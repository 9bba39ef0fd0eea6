// The calendar queue's paths off the common case: pushes outside the window
// and the events that wait past it (see event_queue.h).
#include "harness/rdma/sim/event_queue.h"

#include <algorithm>
#include <stdexcept>

namespace dmbench::rdma::sim {

void EventQueue::PushOutsideWindow(const Event& event, int64_t slot) {
  if (size_ == 0) {
    // An empty queue's window starts where its next event is.
    first_slot_ = slot;
  } else if (slot < first_slot_) {
    // Before the window (never in a simulation, whose events are never
    // earlier than the last popped): every pending event waits, the window
    // starts at this one's slot, and those it reaches return.
    for (size_t index = 0; index < kBuckets; ++index) {
      while (heads_[index] != kEnd) {
        const uint32_t node = heads_[index];
        later_.push_back(nodes_[node].event);
        std::push_heap(later_.begin(), later_.end(), Later);
        Unlink(index, node);
      }
    }
    first_slot_ = slot;
    earliest_bucket_ = kNone;
    TakeInReachedEvents();
  } else {
    // Past the window. If the earliest known is the waiting events' top, it
    // still is, whichever that is now.
    ++size_;
    later_.push_back(event);
    std::push_heap(later_.begin(), later_.end(), Later);
    return;
  }
  ++size_;
  AddToBucket(event, slot);
}

void EventQueue::TakeInReachedEvents() {
  while (!later_.empty()) {
    const int64_t slot = SlotOf(later_.front().time);
    if (!InWindow(slot)) return;
    AddToBucket(PopLater(), slot);
  }
}

void EventQueue::AddNode() {
  if (nodes_.size() >= kEnd) throw std::length_error("event queue: too many events pending");
  nodes_.push_back({{}, free_});
  free_ = static_cast<uint32_t>(nodes_.size() - 1);
}

Event EventQueue::PopLater() {
  std::pop_heap(later_.begin(), later_.end(), Later);
  const Event event = later_.back();
  later_.pop_back();
  return event;
}

}  // namespace dmbench::rdma::sim
