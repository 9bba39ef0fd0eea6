// A serial resource gives each reservation the first idle gap at or after its
// arrival that is long enough. Every link, message engine and PCIe direction
// of the simulated fabric is one, so each of its answers sets simulated time.
#include "harness/rdma/sim/serial_resource.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "harness/util/random.h"

namespace dmbench::rdma::sim {
namespace {

// The rule with nothing left out: every reservation ever made, searched for
// the first gap at or after the arrival that fits, where work of no service
// needs an idle instant. Reservations never overlap (each takes an idle gap),
// so sorted by start they are sorted by end too, and the walk may begin at
// the first that ends after the arrival. Each reservation is inserted in
// place instead of sorting the whole list again: 20,000 steps took 50 s under
// ASan that way, and take 1.8 s now.
class NaiveSerialResource {
 public:
  SimTime Serve(SimTime arrival, SimTime service) {
    SimTime start = arrival;
    auto busy = std::partition_point(busy_.begin(), busy_.end(), [arrival](const auto& interval) {
      return interval.second <= arrival;
    });
    for (; busy != busy_.end(); ++busy) {
      const auto [busy_start, busy_end] = *busy;
      if (start < busy_start && start + service <= busy_start) break;
      start = busy_end;
    }
    if (service > 0) {
      const std::pair<SimTime, SimTime> reserved(start, start + service);
      busy_.insert(std::upper_bound(busy_.begin(), busy_.end(), reserved), reserved);
    }
    return start + service;
  }

 private:
  std::vector<std::pair<SimTime, SimTime>> busy_;
};

TEST(SerialResource, WorkInOrderQueuesBehindWhatCameFirst) {
  SerialResource resource;
  EXPECT_EQ(resource.Serve(10, 5, 0), 15);
  EXPECT_EQ(resource.Serve(12, 5, 0), 20);  // waits for the first
  EXPECT_EQ(resource.Serve(30, 5, 0), 35);  // the resource was idle
}

TEST(SerialResource, LaterWorkFillsAGapThatFitsAndSkipsOneThatDoesNot) {
  SerialResource resource;
  EXPECT_EQ(resource.Serve(100, 10, 0), 110);  // reserved ahead of time
  EXPECT_EQ(resource.Serve(0, 50, 0), 50);     // fits before it
  EXPECT_EQ(resource.Serve(60, 41, 0), 151);   // 60..101 overlaps it: after
  EXPECT_EQ(resource.Serve(50, 10, 0), 60);    // the gap 50..100 still has room
  EXPECT_EQ(resource.Serve(55, 40, 0), 100);   // and exactly 60..100 left
}

TEST(SerialResource, TakesTheEarliestOfSeveralGapsThatFit) {
  SerialResource resource;
  EXPECT_EQ(resource.Serve(100, 10, 0), 110);  // three reservations ahead,
  EXPECT_EQ(resource.Serve(200, 10, 0), 210);  // each with a gap before it
  EXPECT_EQ(resource.Serve(300, 10, 0), 310);
  EXPECT_EQ(resource.Serve(105, 5, 0), 115);  // fits after the first
  EXPECT_EQ(resource.Serve(50, 5, 0), 55);    // fits before the first
  EXPECT_EQ(resource.Serve(55, 50, 0), 165);  // only after the first's 115
  EXPECT_EQ(resource.Serve(0, 0, 0), 0);      // idle at once
  EXPECT_EQ(resource.Serve(52, 0, 0), 55);    // waits out the work at 50
}

TEST(SerialResource, ZeroServiceWaitsForAnIdleInstantAndReservesNothing) {
  SerialResource resource;
  EXPECT_EQ(resource.Serve(10, 20, 0), 30);
  EXPECT_EQ(resource.Serve(15, 0, 0), 30);  // passes once the resource is idle
  EXPECT_EQ(resource.Serve(30, 5, 0), 35);  // nothing was reserved at 30
  EXPECT_EQ(resource.Serve(20, 0, 0), 35);  // 10..35 is busy without a break
  EXPECT_EQ(resource.Serve(40, 0, 0), 40);
  EXPECT_EQ(resource.Serve(50, 10, 0), 60);
  EXPECT_EQ(resource.Serve(50, 0, 0), 60);  // arrives as that work starts
}

TEST(SerialResource, ZeroServiceWaitsWhereAnEndedReservationTouchesTheNext) {
  // At now = 10 the first reservation has ended, and the second holds the
  // resource from that instant: zero-time work waits for it as it would
  // behind one reservation of 0..20.
  SerialResource resource;
  EXPECT_EQ(resource.Serve(0, 10, 0), 10);
  EXPECT_EQ(resource.Serve(30, 5, 10), 35);  // reserved ahead
  EXPECT_EQ(resource.Serve(10, 10, 10), 20);
  EXPECT_EQ(resource.Serve(10, 0, 10), 20);
}

// Serves the same work with the resource and the naive rule, `steps` times
// for each of three seeds, and expects the same answers. `next(random, now)`
// advances `now` (it must not go back) and returns the work's arrival (at or
// after now) and service.
template <typename Next>
void ExpectTheNaiveAnswers(int steps, Next&& next) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    Random random(seed);
    SerialResource resource;
    NaiveSerialResource naive;
    SimTime now = 0;
    for (int step = 0; step < steps; ++step) {
      const auto [arrival, service] = next(random, now);
      ASSERT_EQ(resource.Serve(arrival, service, now), naive.Serve(arrival, service))
          << "seed " << seed << ", step " << step << ", arrival " << arrival << ", service "
          << service << ", now " << now;
    }
  }
}

TEST(SerialResource, AnswersAsTheNaiveRuleDoesAsTimeMovesOn) {
  // Arrivals at or after now, some ahead of what is reserved and some far
  // ahead, as responses reserved for when their DMA ends are; now advances so
  // that ended intervals are dropped and, in long runs, erased.
  ExpectTheNaiveAnswers(4000, [](Random& random, SimTime& now) {
    now += static_cast<SimTime>(random.Uniform(16));  // about 70% busy
    const uint64_t kind = random.Uniform(8);
    const SimTime ahead = kind == 0   ? 200 + random.Uniform(200)  // far ahead
                          : kind <= 2 ? 0                          // arriving now
                                      : random.Uniform(60);
    return std::pair<SimTime, SimTime>(now + ahead, static_cast<SimTime>(random.Uniform(13)));
  });
}

TEST(SerialResource, AnswersAsTheNaiveRuleDoesWithManyReservationsAhead) {
  // Most work reserved far ahead, in small pieces with gaps between them, so
  // that dozens of intervals are busy at an arrival (more than the walk back
  // from the last covers, so the search bisects) and gaps fill and merge at
  // every depth.
  ExpectTheNaiveAnswers(20000, [](Random& random, SimTime& now) {
    now += static_cast<SimTime>(random.Uniform(4));
    const uint64_t kind = random.Uniform(4);
    const SimTime ahead = kind == 0 ? 0 : random.Uniform(kind == 1 ? 40 : 800);
    return std::pair<SimTime, SimTime>(now + ahead,
                                       static_cast<SimTime>(random.Uniform(kind == 0 ? 3 : 9)));
  });
}

}  // namespace
}  // namespace dmbench::rdma::sim
