// What Client checks before a batch reaches a backend, and GlobalAddress.
//
// A recording test double stands in for the backend, so the checks are seen
// independently of any backend: a rejected batch must never reach it.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "harness/rdma/chunk_allocator.h"
#include "harness/rdma/client.h"
#include "harness/rdma/errors.h"
#include "harness/rdma/global_address.h"
#include "harness/util/tests/mentions.h"

namespace dmbench::rdma {
namespace {

constexpr uint64_t kHostBytes = 64 << 20;
constexpr uint64_t kOnChipBytes = 256 << 10;

ClusterShape Shape(bool masked_compare_and_swap, uint64_t on_chip_bytes = kOnChipBytes) {
  ClusterShape shape;
  shape.memory_servers = 2;
  shape.compute_servers = 1;
  shape.clients = 1;
  shape.host_memory_bytes = kHostBytes;
  shape.on_chip_memory_bytes = on_chip_bytes;
  shape.masked_compare_and_swap = masked_compare_and_swap;
  return shape;
}

// Records every batch it is asked to execute; atomics find the word holding
// `word_value`.
class RecordingClient final : public Client {
 public:
  explicit RecordingClient(const ClusterShape& shape)
      : Client(ClientLocation{}, shape),
        allocator_(shape.memory_servers, shape.host_memory_bytes, 1 << 20, 0) {}

  void ChargeCpu(uint64_t) override {}
  void ChargeCpu(CpuWork, uint64_t) override {}
  void Yield() override {}
  void Park() override {}
  void WakeUp(Client&, uint32_t) override {}
  uint64_t NowNanoseconds() const override { return 0; }
  ChunkAllocator& allocator() override { return allocator_; }

  std::vector<std::vector<WorkRequest>> batches;
  int calls = 0;  // of ExecuteBatches
  uint64_t word_value = 0;

 protected:
  void ExecuteBatches(std::span<const std::span<WorkRequest>> posted) override {
    ++calls;
    for (std::span<WorkRequest> batch : posted) {
      for (WorkRequest& request : batch) {
        if (IsAtomic(request.verb)) request.old_value = word_value;
      }
      batches.emplace_back(batch.begin(), batch.end());
    }
  }

 private:
  ChunkAllocator allocator_;
};

// The VerbError message `action` throws, or "no error".
template <typename Action>
std::string VerbErrorOf(Action action) {
  try {
    action();
  } catch (const VerbError& error) {
    return error.what();
  }
  return "no error";
}

TEST(ClientValidation, ValidVerbsReachTheBackendAndAreCounted) {
  RecordingClient client(Shape(false));
  uint64_t buffer = 0;
  client.Read(GlobalAddress::Host(1, 64), &buffer, 8);
  client.word_value = 3;
  EXPECT_EQ(client.CompareAndSwap(GlobalAddress::OnChip(0, 8), 4, 5), 3u);
  ASSERT_EQ(client.batches.size(), 2u);
  EXPECT_EQ(client.batches[0][0].verb, Verb::kRead);
  EXPECT_EQ(client.batches[1][0].remote, GlobalAddress::OnChip(0, 8));
  EXPECT_EQ(client.total_stats().round_trips, 2u);
  EXPECT_EQ(client.total_stats().failed_compare_and_swaps, 1u);
}

TEST(ClientValidation, ZeroLengthTransferIsRejected) {
  RecordingClient client(Shape(false));
  uint64_t buffer = 0;
  EXPECT_EQ(VerbErrorOf([&] { client.Read(GlobalAddress::Host(0, 64), &buffer, 0); }),
            "READ to host[0]+0x40: zero-length transfer");
  EXPECT_EQ(VerbErrorOf([&] { client.Write(GlobalAddress::Host(1, 128), &buffer, 0); }),
            "WRITE to host[1]+0x80: zero-length transfer");
  EXPECT_TRUE(client.batches.empty());
  EXPECT_EQ(client.total_stats(), OpStats{});
}

TEST(ClientValidation, NullBufferIsRejected) {
  RecordingClient client(Shape(false));
  EXPECT_EQ(VerbErrorOf([&] { client.Read(GlobalAddress::Host(0, 64), nullptr, 8); }),
            "READ to host[0]+0x40: no local buffer");
  EXPECT_EQ(VerbErrorOf([&] { client.Write(GlobalAddress::OnChip(0, 0), nullptr, 8); }),
            "WRITE to onchip[0]+0x0: no local buffer");
  EXPECT_TRUE(client.batches.empty());
}

TEST(ClientValidation, EmptyBatchIsRejected) {
  RecordingClient client(Shape(false));
  EXPECT_TRUE(Mentions(VerbErrorOf([&] { client.Execute(std::span<WorkRequest>()); }),
                       "at least one work request"));
  EXPECT_TRUE(client.batches.empty());
  EXPECT_EQ(client.total_stats().round_trips, 0u);
}

TEST(ClientValidation, AtomicsNeedEightAlignedBytes) {
  RecordingClient client(Shape(false));
  WorkRequest batch[1] = {{.verb = Verb::kFetchAndAdd,
                           .remote = GlobalAddress::Host(0, 64),
                           .length = 16,
                           .compare_or_add = 1}};
  EXPECT_TRUE(Mentions(VerbErrorOf([&] { client.Execute(batch); }), "atomics operate on 8 bytes"));
  EXPECT_TRUE(
      Mentions(VerbErrorOf([&] { client.CompareAndSwap(GlobalAddress::OnChip(0, 4), 0, 1); }),
               "CAS to onchip[0]+0x4: atomics need an 8-byte aligned address"));
  EXPECT_TRUE(client.batches.empty());
}

TEST(ClientValidation, MaskedCompareAndSwapWithoutBackendSupportNamesTheLimitation) {
  RecordingClient client(Shape(/*masked_compare_and_swap=*/false));
  const std::string error =
      VerbErrorOf([&] { client.MaskedCompareAndSwap(GlobalAddress::OnChip(0, 0), 0, 1, 0xFFFF); });
  EXPECT_TRUE(Mentions(error, "masked CAS to onchip[0]+0x0"));
  EXPECT_TRUE(Mentions(error, "not available on this backend"));
  EXPECT_TRUE(Mentions(error, "rdma-core"));
  EXPECT_TRUE(Mentions(error, "use 64-bit locks"));
  EXPECT_TRUE(client.batches.empty());
  EXPECT_EQ(client.total_stats(), OpStats{});
}

TEST(ClientValidation, MaskedCompareAndSwapWithBackendSupportReachesTheBackend) {
  RecordingClient client(Shape(/*masked_compare_and_swap=*/true));
  client.MaskedCompareAndSwap(GlobalAddress::OnChip(0, 0), 0, 1, 0xFFFF);
  ASSERT_EQ(client.batches.size(), 1u);
  EXPECT_EQ(client.batches[0][0].verb, Verb::kMaskedCompareAndSwap);
  EXPECT_EQ(client.batches[0][0].mask, 0xFFFFu);
  EXPECT_EQ(client.total_stats().compare_and_swaps, 1u);
}

TEST(ClientValidation, MaskedCompareAndSwapNeedsANonEmptyMaskOfWholeFields) {
  RecordingClient client(Shape(true));
  EXPECT_TRUE(Mentions(
      VerbErrorOf([&] { client.MaskedCompareAndSwap(GlobalAddress::OnChip(0, 0), 0, 1, 0); }),
      "empty mask"));
  EXPECT_TRUE(Mentions(VerbErrorOf([&] {
                         client.MaskedCompareAndSwap(GlobalAddress::OnChip(0, 0), 0, 1,
                                                     0xFFFF'0000'0000'FF00ULL);
                       }),
                       "whole 16-bit fields"));
  EXPECT_TRUE(client.batches.empty());
}

TEST(ClientValidation, TransfersMustEndInsideTheAddressSpace) {
  RecordingClient client(Shape(false));
  uint64_t buffer[2] = {};
  client.Read(GlobalAddress::Host(0, kHostBytes - 16), buffer, 16);  // ends exactly at the end
  EXPECT_EQ(client.batches.size(), 1u);
  EXPECT_TRUE(Mentions(
      VerbErrorOf([&] { client.Read(GlobalAddress::Host(0, kHostBytes - 8), buffer, 16); }),
      "16 bytes run past the end of the host memory (67108864 bytes)"));
  EXPECT_TRUE(
      Mentions(VerbErrorOf([&] { client.Read(GlobalAddress::OnChip(0, kOnChipBytes), buffer, 8); }),
               "past the end of the on-chip memory (262144 bytes)"));
  // An offset beyond the space must not wrap around in the length check.
  EXPECT_TRUE(Mentions(VerbErrorOf([&] {
                         client.Read(GlobalAddress::Host(0, GlobalAddress::kMaxOffset), buffer, 8);
                       }),
                       "past the end"));
  EXPECT_EQ(client.batches.size(), 1u);
}

TEST(ClientValidation, NoOnChipMemoryRejectsEveryOnChipAccess) {
  RecordingClient client(Shape(false, /*on_chip_bytes=*/0));
  EXPECT_TRUE(
      Mentions(VerbErrorOf([&] { client.FetchAndAdd(GlobalAddress::OnChip(0, 0), 1); }),
               "FAA to onchip[0]+0x0: 8 bytes run past the end of the on-chip memory (0 bytes)"));
}

// A batch is checked as a whole before any of it executes.
TEST(ClientValidation, OneBadRequestRejectsTheWholeBatch) {
  RecordingClient client(Shape(false));
  uint64_t buffer = 0;
  WorkRequest batch[3] = {
      {.verb = Verb::kWrite, .remote = GlobalAddress::Host(0, 64), .local = &buffer, .length = 8},
      {.verb = Verb::kRead, .remote = GlobalAddress::Host(0, 128), .local = &buffer, .length = 8},
      {.verb = Verb::kRead, .remote = GlobalAddress::Host(0, 192), .local = &buffer, .length = 0}};
  EXPECT_TRUE(Mentions(VerbErrorOf([&] { client.Execute(batch); }),
                       "READ to host[0]+0xc0: zero-length transfer"));
  EXPECT_TRUE(client.batches.empty());
  EXPECT_EQ(client.total_stats(), OpStats{});

  batch[2].length = 8;
  batch[1].remote = GlobalAddress::Host(1, 128);
  EXPECT_TRUE(Mentions(VerbErrorOf([&] { client.Execute(batch); }),
                       "a batch goes to one memory server (one QP); this one also targets "
                       "server 0"));
  EXPECT_TRUE(client.batches.empty());
}

TEST(ClientValidation, ConcurrentBatchesAreOneCallAndOneRoundTrip) {
  RecordingClient client(Shape(false));
  uint64_t a = 0, b = 0;
  WorkRequest to_server0[1] = {
      {.verb = Verb::kRead, .remote = GlobalAddress::Host(0, 64), .local = &a, .length = 8}};
  WorkRequest to_server1[2] = {
      {.verb = Verb::kRead, .remote = GlobalAddress::Host(1, 64), .local = &b, .length = 8},
      {.verb = Verb::kFetchAndAdd, .remote = GlobalAddress::Host(1, 128), .length = 8}};
  const std::span<WorkRequest> batches[2] = {to_server0, to_server1};
  client.ExecuteConcurrently(batches);
  EXPECT_EQ(client.calls, 1);
  ASSERT_EQ(client.batches.size(), 2u);
  EXPECT_EQ(client.batches[1].size(), 2u);
  EXPECT_EQ(client.total_stats().round_trips, 1u);
  EXPECT_EQ(client.total_stats().reads, 2u);
  EXPECT_EQ(client.total_stats().fetch_and_adds, 1u);
}

TEST(ClientValidation, ConcurrentBatchesAreCheckedBeforeAnyIsPosted) {
  RecordingClient client(Shape(false));
  uint64_t a = 0;
  WorkRequest good[1] = {
      {.verb = Verb::kRead, .remote = GlobalAddress::Host(0, 64), .local = &a, .length = 8}};
  WorkRequest bad[1] = {
      {.verb = Verb::kRead, .remote = GlobalAddress::Host(2, 64), .local = &a, .length = 8}};
  const std::span<WorkRequest> batches[2] = {good, bad};
  EXPECT_TRUE(Mentions(VerbErrorOf([&] { client.ExecuteConcurrently(batches); }),
                       "READ to host[2]+0x40: no such memory server (the cluster has 2)"));
  const std::span<WorkRequest> with_empty[2] = {good, std::span<WorkRequest>()};
  EXPECT_TRUE(Mentions(VerbErrorOf([&] { client.ExecuteConcurrently(with_empty); }),
                       "at least one work request"));
  EXPECT_TRUE(Mentions(
      VerbErrorOf([&] { client.ExecuteConcurrently(std::span<const std::span<WorkRequest>>()); }),
      "at least one batch"));
  EXPECT_EQ(client.calls, 0);
  EXPECT_EQ(client.total_stats(), OpStats{});
}

TEST(GlobalAddress, PackUnpackRoundTrips) {
  const GlobalAddress addresses[] = {
      GlobalAddress::Host(0, 64), GlobalAddress::Host(7, 0x1234'5678'9ABCULL),
      GlobalAddress::Host(65535, GlobalAddress::kMaxOffset), GlobalAddress::Host(1, 0)};
  for (const GlobalAddress& address : addresses) {
    EXPECT_TRUE(address.Packs()) << address.ToString();
    EXPECT_EQ(GlobalAddress::Unpack(address.Pack()), address) << address.ToString();
  }
  // What would not come back whole does not pack.
  EXPECT_FALSE(GlobalAddress::OnChip(0, 64).Packs());
  EXPECT_FALSE(GlobalAddress::Host(1, GlobalAddress::kMaxOffset + 1).Packs());
  EXPECT_EQ(GlobalAddress::Host(7, 0x40).Pack(), (uint64_t{7} << 48) | 0x40);
  EXPECT_EQ(GlobalAddress::Unpack(0xFFFF'0000'0000'0001ULL), GlobalAddress::Host(65535, 1));
}

TEST(GlobalAddress, NullIsTheZeroWordAndOnlyThat) {
  EXPECT_TRUE(GlobalAddress::Null().IsNull());
  EXPECT_EQ(GlobalAddress::Null().Pack(), 0u);
  EXPECT_TRUE(GlobalAddress::Unpack(0).IsNull());
  EXPECT_FALSE(GlobalAddress::Host(0, 64).IsNull());
  EXPECT_FALSE(GlobalAddress::Host(1, 0).IsNull());
  EXPECT_FALSE(GlobalAddress::OnChip(0, 0).IsNull());
}

TEST(GlobalAddress, ArithmeticAndText) {
  const GlobalAddress address = GlobalAddress::OnChip(3, 0x100) + 0x40;
  EXPECT_EQ(address, GlobalAddress::OnChip(3, 0x140));
  EXPECT_EQ(address.ToString(), "onchip[3]+0x140");
  EXPECT_EQ(GlobalAddress::Host(12, 0xABCDEF).ToString(), "host[12]+0xabcdef");
  EXPECT_LT(GlobalAddress::Host(0, 100), GlobalAddress::Host(1, 0));
}

}  // namespace
}  // namespace dmbench::rdma
