// What each verb does to remote memory and returns, on the sim backend.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "harness/rdma/errors.h"
#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::MakeCluster;
using test_support::SmallTopology;

constexpr uint64_t kWord = 1 << 20;

// The sim runs its clients as coroutines on one thread, so the indexes may
// leave what a compute server's clients share unlocked (ClusterShape).
TEST(VerbSemantics, ClientsShareOneThread) {
  auto cluster = MakeCluster(SmallTopology(2, 1, 1));
  EXPECT_TRUE(cluster->shape().clients_share_one_thread);
}

TEST(VerbSemantics, WriteThenReadRoundTrips) {
  auto cluster = MakeCluster(SmallTopology(2, 1, 1));
  cluster->Run([](Client& client) {
    char text[100] = "disaggregated memory";
    client.Write(GlobalAddress::Host(1, kWord), text, sizeof(text));
    char back[100] = {};
    client.Read(GlobalAddress::Host(1, kWord), back, sizeof(back));
    EXPECT_STREQ(back, "disaggregated memory");
    // The other server's memory is untouched.
    client.Read(GlobalAddress::Host(0, kWord), back, sizeof(back));
    EXPECT_EQ(back[0], 0);
  });
}

TEST(VerbSemantics, CompareAndSwapReturnsOldValueOnSuccessAndFailure) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  cluster->Run([](Client& client) {
    const GlobalAddress word = GlobalAddress::Host(0, kWord);
    EXPECT_EQ(client.CompareAndSwap(word, 0, 7), 0u);   // succeeds
    EXPECT_EQ(client.CompareAndSwap(word, 0, 9), 7u);   // fails: returns current value
    EXPECT_EQ(client.CompareAndSwap(word, 7, 11), 7u);  // succeeds
    uint64_t value = 0;
    client.Read(word, &value, 8);
    EXPECT_EQ(value, 11u);
  });
}

TEST(VerbSemantics, FailedCompareAndSwapIsCountedAndLeavesMemory) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  cluster->Run([](Client& client) {
    const GlobalAddress word = GlobalAddress::Host(0, kWord);
    OpStats stats;
    {
      StatsScope scope(client, stats);
      client.CompareAndSwap(word, 5, 6);
      client.CompareAndSwap(word, 0, 6);
    }
    EXPECT_EQ(stats.compare_and_swaps, 2u);
    EXPECT_EQ(stats.failed_compare_and_swaps, 1u);
    EXPECT_EQ(stats.round_trips, 2u);
  });
}

TEST(VerbSemantics, MaskedCompareAndSwapChangesOnlyItsField) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  cluster->Run([](Client& client) {
    const GlobalAddress word = GlobalAddress::OnChip(0, 64);
    const uint64_t initial = 0x4444'3333'2222'1111ULL;
    client.Write(word, &initial, 8);
    const uint64_t field = 0xFFFFULL << 16;
    // Compare field 1 (0x2222) and set it to 0xBEEF; the rest stays.
    uint64_t old = client.MaskedCompareAndSwap(word, 0x2222ULL << 16, 0xBEEFULL << 16, field);
    EXPECT_EQ(old, initial);
    uint64_t value = 0;
    client.Read(word, &value, 8);
    EXPECT_EQ(value, 0x4444'3333'BEEF'1111ULL);
    // Other fields do not take part in the comparison...
    old = client.MaskedCompareAndSwap(word, 0xBEEFULL << 16, 0x0000ULL << 16, field);
    EXPECT_EQ(old, value);
    client.Read(word, &value, 8);
    EXPECT_EQ(value, 0x4444'3333'0000'1111ULL);
    // ...and a mismatch in the field fails without writing.
    old = client.MaskedCompareAndSwap(word, 0x1234ULL << 16, 0x5678ULL << 16, field);
    client.Read(word, &value, 8);
    EXPECT_EQ(value, 0x4444'3333'0000'1111ULL);
  });
}

TEST(VerbSemantics, MaskedCompareAndSwapRejectsPartialFields) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  EXPECT_THROW(cluster->Run([](Client& client) {
    client.MaskedCompareAndSwap(GlobalAddress::Host(0, kWord), 0, 1, 0xFF);
  }),
               VerbError);
}

TEST(VerbSemantics, FetchAndAddReturnsOldValueAndAdds) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  cluster->Run([](Client& client) {
    const GlobalAddress word = GlobalAddress::Host(0, kWord);
    EXPECT_EQ(client.FetchAndAdd(word, 5), 0u);
    EXPECT_EQ(client.FetchAndAdd(word, 3), 5u);
    EXPECT_EQ(client.FetchAndAdd(word, ~uint64_t{0}), 8u);  // adding -1 wraps
    uint64_t value = 0;
    client.Read(word, &value, 8);
    EXPECT_EQ(value, 7u);
  });
}

TEST(VerbSemantics, ConcurrentFetchAndAddsLoseNothing) {
  auto cluster = MakeCluster(SmallTopology(2, 4, 8));
  cluster->Run([](Client& client) {
    for (int i = 0; i < 50; ++i) client.FetchAndAdd(GlobalAddress::OnChip(1, 0), 1);
    for (int i = 0; i < 50; ++i) client.FetchAndAdd(GlobalAddress::Host(1, kWord), 2);
  });
  EXPECT_EQ(cluster->memory(1, MemorySpace::kOnChip).ReadWord(0), 4u * 8 * 50);
  EXPECT_EQ(cluster->memory(1, MemorySpace::kHost).ReadWord(kWord), 4u * 8 * 50 * 2);
}

TEST(VerbSemantics, StatsScopeCountsBatchAsOneRoundTrip) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 1));
  cluster->Run([](Client& client) {
    uint64_t a = 1, b = 2, c = 0;
    WorkRequest batch[3] = {
        {.verb = Verb::kWrite, .remote = GlobalAddress::Host(0, kWord), .local = &a, .length = 8},
        {.verb = Verb::kRead, .remote = GlobalAddress::Host(0, kWord), .local = &c, .length = 8},
        {.verb = Verb::kFetchAndAdd,
         .remote = GlobalAddress::Host(0, kWord + 8),
         .length = 8,
         .compare_or_add = b}};
    OpStats stats;
    {
      StatsScope scope(client, stats);
      client.Execute(batch);
    }
    EXPECT_EQ(c, 1u);  // in order: the READ sees the WRITE before it
    EXPECT_EQ(stats.round_trips, 1u);
    EXPECT_EQ(stats.reads, 1u);
    EXPECT_EQ(stats.writes, 1u);
    EXPECT_EQ(stats.fetch_and_adds, 1u);
    EXPECT_EQ(stats.bytes_written, 8u);
    EXPECT_EQ(stats.bytes_read, 8u);
    EXPECT_EQ(client.total_stats(), stats);
  });
}

// Work requests on one QP take effect in posting order, also past an atomic
// that holds its processing unit: the READ after a CAS in one batch comes
// before a WRITE that the thread's other coroutine (the same QP) posts while
// the CAS is on its way.
TEST(VerbSemantics, PostingOrderOnAQueuePairHoldsPastAnAtomicInABatch) {
  auto cluster = MakeCluster(SmallTopology(1, 1, 2));
  const GlobalAddress lock = GlobalAddress::Host(0, kWord);
  const GlobalAddress data = GlobalAddress::Host(0, 2 * kWord);
  uint64_t read = 99;
  cluster->Run([&](Client& client) {
    if (client.location().coroutine == 0) {
      WorkRequest batch[2] = {
          {.verb = Verb::kCompareAndSwap, .remote = lock, .length = 8, .swap = 1},
          {.verb = Verb::kRead, .remote = data, .local = &read, .length = 8}};
      client.Execute(batch);
    } else {
      const uint64_t one = 1;
      client.Write(data, &one, 8);
    }
  });
  EXPECT_EQ(read, 0u);
}

// The same when the atomic waits in a parking slot, which frees its
// processing unit for other QPs but not for its own: compute server 0's CAS
// holds the word's bucket, so compute server 1's CAS parks; a WRITE of the
// word that the thread's other coroutine posts after it takes effect after it.
TEST(VerbSemantics, PostingOrderOnAQueuePairHoldsPastAParkedAtomic) {
  auto cluster = MakeCluster(SmallTopology(1, 2, 2));
  const GlobalAddress word = GlobalAddress::Host(0, kWord);
  uint64_t parked_saw = 0;
  cluster->Run([&](Client& client) {
    const ClientLocation where = client.location();
    if (where.compute_server == 0 && where.coroutine == 0) {
      client.CompareAndSwap(word, 0, 7);
    } else if (where.compute_server == 1 && where.coroutine == 0) {
      parked_saw = client.CompareAndSwap(word, 7, 1);
    } else if (where.compute_server == 1) {
      const uint64_t five = 5;
      client.Write(word, &five, 8);
    }
  });
  EXPECT_EQ(parked_saw, 7u);
  EXPECT_EQ(cluster->memory(0, MemorySpace::kHost).ReadWord(kWord), 5u);
}

// And with processing units not modelled, where only the atomic's own QP
// waits for it: a second CAS waits at the first one's bucket, and a WRITE
// the thread posts after it must not pass it.
TEST(VerbSemantics, PostingOrderOnAQueuePairHoldsPastAnAtomicWithoutUnits) {
  NicProfile profile = test_support::DefaultProfile();
  profile.processing_units = 0;
  profile.atomic_parking_slots = 0;
  auto cluster = MakeCluster(SmallTopology(1, 1, 3), profile);
  const GlobalAddress first = GlobalAddress::Host(0, kWord);
  // The same 12 low address bits: the same atomic bucket.
  const GlobalAddress second = GlobalAddress::Host(0, kWord + 4096 * 8);
  uint64_t second_saw = 99;
  cluster->Run([&](Client& client) {
    switch (client.location().coroutine) {
      case 0:
        client.CompareAndSwap(first, 0, 1);
        break;
      case 1:
        second_saw = client.CompareAndSwap(second, 0, 1);
        break;
      default: {
        const uint64_t five = 5;
        client.Write(second, &five, 8);
      }
    }
  });
  EXPECT_EQ(second_saw, 0u);
}

TEST(VerbSemantics, BadAddressesAreRejectedWithTheReason) {
  auto cluster = MakeCluster(SmallTopology(2, 1, 1));
  auto message_of = [&](const SimCluster::ClientBody& body) -> std::string {
    try {
      cluster->Run(body);
    } catch (const VerbError& error) {
      return error.what();
    }
    return "no error";
  };
  uint64_t buffer = 0;
  EXPECT_NE(message_of([&](Client& c) {
              c.Read(GlobalAddress::Host(2, 0), &buffer, 8);
            }).find("no such memory server"),
            std::string::npos);
  EXPECT_NE(message_of([&](Client& c) {
              c.Read(GlobalAddress::Host(0, (64u << 20) - 4), &buffer, 8);
            }).find("past the end"),
            std::string::npos);
  EXPECT_NE(
      message_of([&](Client& c) { c.FetchAndAdd(GlobalAddress::Host(0, 12), 1); }).find("aligned"),
      std::string::npos);
  EXPECT_NE(message_of([&](Client& c) {
              WorkRequest batch[2] = {{.verb = Verb::kRead,
                                       .remote = GlobalAddress::Host(0, 64),
                                       .local = &buffer,
                                       .length = 8},
                                      {.verb = Verb::kRead,
                                       .remote = GlobalAddress::Host(1, 64),
                                       .local = &buffer,
                                       .length = 8}};
              c.Execute(batch);
            }).find("one memory server"),
            std::string::npos);
}

TEST(VerbSemantics, RawAccessToMemoryTheClusterLacksIsRejectedWithTheReason) {
  const auto message_of = [](SimCluster& cluster, uint16_t server, MemorySpace space) {
    try {
      cluster.memory(server, space);
    } catch (const VerbError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  auto cluster = MakeCluster(SmallTopology(2, 1, 1));
  ASSERT_GT(cluster->shape().on_chip_memory_bytes, 0u);
  EXPECT_EQ(message_of(*cluster, 1, MemorySpace::kOnChip), "no error");
  EXPECT_EQ(message_of(*cluster, 2, MemorySpace::kHost), "no memory server 2");
  EXPECT_EQ(message_of(*cluster, 2, MemorySpace::kOnChip), "no memory server 2");
  NicProfile without_on_chip = test_support::DefaultProfile();
  without_on_chip.on_chip_memory_kib = 0;
  auto host_only = MakeCluster(SmallTopology(2, 1, 1), without_on_chip);
  EXPECT_EQ(message_of(*host_only, 1, MemorySpace::kHost), "no error");
  EXPECT_EQ(message_of(*host_only, 1, MemorySpace::kOnChip),
            "this NIC profile has no on-chip memory");
  EXPECT_EQ(message_of(*host_only, 7, MemorySpace::kOnChip), "no memory server 7");
}

}  // namespace
}  // namespace dmbench::rdma::sim
