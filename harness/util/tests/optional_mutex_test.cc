// An OptionalMutex locks as its mutex does when threads share it, and not
// at all when they do not.
#include "harness/util/optional_mutex.h"

#include <gtest/gtest.h>

#include <mutex>
#include <shared_mutex>
#include <thread>

namespace dmbench {
namespace {

// Whether another thread can take `mutex` exclusively right now.
template <typename Mutex>
bool OtherThreadCanLock(OptionalMutex<Mutex>& mutex) {
  bool locked = false;
  std::thread other([&] {
    std::unique_lock lock(mutex, std::try_to_lock);
    locked = lock.owns_lock();
  });
  other.join();
  return locked;
}

TEST(OptionalMutex, LocksWhenThreadsShare) {
  OptionalMutex<std::mutex> mutex(/*threads_share=*/true);
  EXPECT_TRUE(OtherThreadCanLock(mutex));
  {
    std::lock_guard held(mutex);
    EXPECT_FALSE(OtherThreadCanLock(mutex));
  }
  EXPECT_TRUE(OtherThreadCanLock(mutex));
}

TEST(OptionalMutex, SharedHoldersExcludeAWriterWhenThreadsShare) {
  OptionalMutex<std::shared_mutex> mutex(/*threads_share=*/true);
  std::shared_lock reader(mutex);
  EXPECT_FALSE(OtherThreadCanLock(mutex));
  reader.unlock();
  EXPECT_TRUE(OtherThreadCanLock(mutex));
}

// Counts what is held of it, so a test sees whether it was locked at all.
class RecordingMutex {
 public:
  explicit RecordingMutex(int* held) : held_(held) {}
  void lock() { ++*held_; }
  void unlock() { --*held_; }
  bool try_lock() {
    ++*held_;
    return true;
  }
  void lock_shared() { ++*held_; }
  void unlock_shared() { --*held_; }

 private:
  int* held_;
};

TEST(OptionalMutex, LocksNothingForOneThread) {
  int held = 0;
  OptionalMutex<RecordingMutex> mutex(/*threads_share=*/false, &held);
  {
    std::unique_lock writer(mutex);
    std::shared_lock reader(mutex);
    std::unique_lock tried(mutex, std::try_to_lock);
    EXPECT_TRUE(tried.owns_lock());
    EXPECT_EQ(held, 0);
  }
  OptionalMutex<RecordingMutex> shared(/*threads_share=*/true, &held);
  {
    std::unique_lock writer(shared);
    std::shared_lock reader(shared);
    std::unique_lock tried(shared, std::try_to_lock);
    EXPECT_EQ(held, 3);
  }
  EXPECT_EQ(held, 0);
}

}  // namespace
}  // namespace dmbench
