// A client's operations drawn ahead: the same operations in the same order,
// the one after the running one known, and what was drawn and never run
// handed back to the stream when the client stops.
#include "harness/driver/lookahead_operations.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace dmbench::driver {
namespace {

// Operation i has key i + 1; counts what it returned and what came back.
class CountingStream : public workloads::OperationStream {
 public:
  explicit CountingStream(bool ahead = true) : ahead_(ahead) {}
  bool DrawsAheadUnchanged() const override { return ahead_; }
  workloads::Operation Next() override {
    workloads::Operation op{};
    op.key = ++returned_;
    return op;
  }
  void Unread(size_t count) override {
    returned_ -= count;
    unread_ += count;
  }
  uint64_t returned() const { return returned_; }
  uint64_t unread() const { return unread_; }

 private:
  bool ahead_;
  uint64_t returned_ = 0;
  uint64_t unread_ = 0;
};

TEST(LookaheadOperations, RunsTheStreamsOperationsInOrderKnowingTheNext) {
  CountingStream stream;
  {
    LookaheadOperations operations(stream);
    for (uint64_t i = 1; i <= 10; ++i) {
      EXPECT_EQ(operations.Next().key, i);
      for (size_t distance = 1; distance <= LookaheadOperations::kDepth; ++distance) {
        EXPECT_EQ(operations.Ahead(distance).key, i + distance);
      }
      EXPECT_EQ(stream.returned(), i + LookaheadOperations::kDepth);
    }
  }
  // The one drawn ahead of the tenth never ran.
  EXPECT_EQ(stream.unread(), LookaheadOperations::kDepth);
  EXPECT_EQ(stream.returned(), 10u);
}

TEST(LookaheadOperations, DrawsNoneAheadFromAStreamThatForbidsIt) {
  // As ycsb-d's, whose draws read what other clients' draws change.
  CountingStream stream(/*ahead=*/false);
  {
    LookaheadOperations operations(stream);
    EXPECT_EQ(operations.depth(), 0u);
    for (uint64_t i = 1; i <= 3; ++i) {
      EXPECT_EQ(operations.Next().key, i);
      EXPECT_EQ(stream.returned(), i) << "drawn only when it runs";
    }
  }
  EXPECT_EQ(stream.unread(), 0u);
}

TEST(LookaheadOperations, DrawsNothingUntilAsked) {
  CountingStream stream;
  { LookaheadOperations operations(stream); }
  EXPECT_EQ(stream.returned(), 0u);
  EXPECT_EQ(stream.unread(), 0u);
}

}  // namespace
}  // namespace dmbench::driver
