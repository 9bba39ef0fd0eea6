// ClientCoroutine: the switching, failure and teardown contract that every
// backend's scheduler relies on.
#include "harness/rdma/client_coroutine.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace dmbench::rdma {
namespace {

// Room for ASan's redzones; the simulator's default.
constexpr size_t kStackBytes = 256 * 1024;

// Records, by its destructor running, that the frame holding it unwound.
class UnwindWitness {
 public:
  explicit UnwindWitness(bool& destroyed) : destroyed_(destroyed) {}
  ~UnwindWitness() { destroyed_ = true; }
  UnwindWitness(const UnwindWitness&) = delete;
  UnwindWitness& operator=(const UnwindWitness&) = delete;

 private:
  bool& destroyed_;
};

// Starts a body that suspends once with a witness on its stack and runs it
// to that suspension; `*resumed` records a resumption past it.
void RunToASuspensionWitnessed(ClientCoroutine& coroutine, bool& unwound, bool* resumed = nullptr) {
  coroutine.Start(
      [&coroutine, &unwound, resumed] {
        UnwindWitness witness(unwound);
        coroutine.Suspend();
        if (resumed != nullptr) *resumed = true;
      },
      kStackBytes);
  coroutine.Resume();
}

TEST(ClientCoroutineTest, FinishedAndNotStartedBeforeStart) {
  ClientCoroutine coroutine;
  EXPECT_TRUE(coroutine.finished());
  EXPECT_FALSE(coroutine.started());
  EXPECT_FALSE(coroutine.running());
}

TEST(ClientCoroutineTest, StartDoesNotRunTheBody) {
  bool ran = false;
  ClientCoroutine coroutine;
  coroutine.Start([&] { ran = true; }, kStackBytes);
  EXPECT_FALSE(ran);
  EXPECT_FALSE(coroutine.started());
  EXPECT_FALSE(coroutine.finished());
}

TEST(ClientCoroutineTest, BodyThatSuspendsNTimesNeedsNPlusOneResumes) {
  constexpr int kSuspends = 5;
  int steps = 0;
  ClientCoroutine coroutine;
  coroutine.Start(
      [&] {
        for (int i = 0; i < kSuspends; ++i) {
          ++steps;
          EXPECT_TRUE(coroutine.running());
          coroutine.Suspend();
        }
        ++steps;
      },
      kStackBytes);

  for (int resume = 1; resume <= kSuspends; ++resume) {
    coroutine.Resume();
    EXPECT_EQ(steps, resume);
    EXPECT_TRUE(coroutine.started());
    EXPECT_FALSE(coroutine.finished()) << "after resume " << resume;
    EXPECT_FALSE(coroutine.running());
  }
  coroutine.Resume();
  EXPECT_EQ(steps, kSuspends + 1);
  EXPECT_TRUE(coroutine.finished());
}

TEST(ClientCoroutineTest, ResumeRethrowsWhatTheBodyThrew) {
  bool unwound = false;
  ClientCoroutine coroutine;
  coroutine.Start(
      [&] {
        UnwindWitness witness(unwound);
        coroutine.Suspend();
        throw std::runtime_error("client failed");
      },
      kStackBytes);
  coroutine.Resume();
  try {
    coroutine.Resume();
    FAIL() << "Resume() returned normally";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "client failed");
  }
  EXPECT_TRUE(unwound);
  EXPECT_TRUE(coroutine.finished());
  EXPECT_FALSE(coroutine.running());
}

TEST(ClientCoroutineTest, DestroyUnwindsASuspendedCoroutine) {
  bool unwound = false;
  bool resumed_after_suspend = false;
  ClientCoroutine coroutine;
  RunToASuspensionWitnessed(coroutine, unwound, &resumed_after_suspend);
  ASSERT_FALSE(unwound);

  coroutine.Destroy();
  EXPECT_TRUE(unwound);
  EXPECT_FALSE(resumed_after_suspend);
  EXPECT_TRUE(coroutine.finished());
  coroutine.Destroy();  // a second time is harmless
  EXPECT_TRUE(coroutine.finished());
}

TEST(ClientCoroutineTest, DestructorUnwindsASuspendedCoroutine) {
  bool unwound = false;
  {
    ClientCoroutine coroutine;
    RunToASuspensionWitnessed(coroutine, unwound);
  }
  EXPECT_TRUE(unwound);
}

TEST(ClientCoroutineTest, DestroyBeforeTheFirstResumeNeverRunsTheBody) {
  bool ran = false;
  ClientCoroutine coroutine;
  coroutine.Start([&] { ran = true; }, kStackBytes);
  coroutine.Destroy();
  EXPECT_FALSE(ran);
  EXPECT_FALSE(coroutine.started());
  EXPECT_TRUE(coroutine.finished());
  EXPECT_THROW(coroutine.Resume(), std::logic_error);
}

TEST(ClientCoroutineTest, StartsAgainAfterARun) {
  int runs = 0;
  ClientCoroutine coroutine;
  for (int run = 0; run < 3; ++run) {
    coroutine.Start(
        [&] {
          coroutine.Suspend();
          ++runs;
        },
        kStackBytes);
    coroutine.Resume();
    coroutine.Resume();
    EXPECT_TRUE(coroutine.finished());
  }
  EXPECT_EQ(runs, 3);
}

TEST(ClientCoroutineTest, StartEndsASuspendedRun) {
  bool unwound = false;
  ClientCoroutine coroutine;
  RunToASuspensionWitnessed(coroutine, unwound);
  coroutine.Start([] {}, kStackBytes);
  EXPECT_TRUE(unwound);
  EXPECT_FALSE(coroutine.started());
  coroutine.Resume();
  EXPECT_TRUE(coroutine.finished());
}

// A scheduler interleaves its clients: each coroutine picks up where it
// suspended, whatever ran in between.
TEST(ClientCoroutineTest, SchedulerInterleavesCoroutines) {
  std::vector<std::string> trace;
  ClientCoroutine first;
  ClientCoroutine second;
  auto body = [&trace](ClientCoroutine& self, const std::string& name) {
    for (int step = 0; step < 3; ++step) {
      trace.push_back(name + std::to_string(step));
      self.Suspend();
    }
  };
  first.Start([&] { body(first, "a"); }, kStackBytes);
  second.Start([&] { body(second, "b"); }, kStackBytes);
  while (!first.finished() || !second.finished()) {
    if (!first.finished()) first.Resume();
    if (!second.finished()) second.Resume();
  }
  EXPECT_EQ(trace, (std::vector<std::string>{"a0", "b0", "a1", "b1", "a2", "b2"}));
}

TEST(ClientCoroutineTest, MisplacedCallsAreRejected) {
  ClientCoroutine coroutine;
  EXPECT_THROW(coroutine.Suspend(), std::logic_error);  // outside the coroutine
  EXPECT_THROW(coroutine.Resume(), std::logic_error);   // nothing started
  EXPECT_THROW(coroutine.Start(nullptr, kStackBytes), std::invalid_argument);

  bool resume_rejected = false;
  bool destroy_rejected = false;
  coroutine.Start(
      [&] {
        try {
          coroutine.Resume();
        } catch (const std::logic_error&) {
          resume_rejected = true;
        }
        try {
          coroutine.Destroy();
        } catch (const std::logic_error&) {
          destroy_rejected = true;
        }
      },
      kStackBytes);
  coroutine.Resume();
  EXPECT_TRUE(resume_rejected);
  EXPECT_TRUE(destroy_rejected);
  EXPECT_TRUE(coroutine.finished());
  EXPECT_THROW(coroutine.Resume(), std::logic_error);  // already finished
}

}  // namespace
}  // namespace dmbench::rdma
