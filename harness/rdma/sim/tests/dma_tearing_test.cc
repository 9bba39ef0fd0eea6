// Cacheline-granular tearing of READs that overlap a WRITE (memory_region.h).
//
// One writer overwrites a 1 KiB buffer with its sequence number in every byte
// while readers on other compute servers read it back; each READ is reduced to
// one value per cacheline of the remote address, which is what the model
// promises to keep intact.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/rdma/sim/tests/sim_test_support.h"

namespace dmbench::rdma::sim {
namespace {

using test_support::DefaultProfile;
using test_support::MakeCluster;
using test_support::SmallTopology;

constexpr uint32_t kBufferBytes = 1024;
constexpr uint64_t kCacheline = 64;
constexpr uint64_t kAlignedOffset = 1 << 20;
// Fewer writes than byte values, so sequence numbers never wrap and a larger
// byte is always a later write.
constexpr uint32_t kWrites = 200;

uint8_t SequenceByte(uint32_t sequence) { return static_cast<uint8_t>(sequence % 255 + 1); }

// One READ, as the values of the remote cachelines it covers, lowest first.
struct LineValues {
  std::vector<uint8_t> values;
  bool uniform_lines = true;  // every line's bytes were equal

  bool Torn() const {
    for (uint8_t value : values) {
      if (value != values.front()) return true;
    }
    return false;
  }
  bool Rises() const {
    for (size_t i = 1; i < values.size(); ++i) {
      if (values[i - 1] < values[i]) return true;
    }
    return false;
  }
  bool Falls() const {
    for (size_t i = 1; i < values.size(); ++i) {
      if (values[i - 1] > values[i]) return true;
    }
    return false;
  }
};

LineValues SplitIntoLines(const std::vector<uint8_t>& data, uint64_t remote_offset) {
  LineValues lines;
  for (size_t i = 0; i < data.size(); ++i) {
    const bool line_start = i == 0 || (remote_offset + i) % kCacheline == 0;
    if (line_start) {
      lines.values.push_back(data[i]);
    } else if (data[i] != lines.values.back()) {
      lines.uniform_lines = false;
    }
  }
  return lines;
}

struct TearingRun {
  std::vector<LineValues> during_writes;  // READs posted while the writer ran
  std::vector<LineValues> after_writes;   // READs posted after its last WRITE completed
  uint64_t torn_reads = 0;                // SimCluster::torn_reads()
  uint64_t reads_at_resume = 0;           // SimCluster::reads_resolved_at_resume()
  uint32_t expected_lines = 0;
};

// `writers` coroutines of compute server 0 share the writes (sequence s is
// written by writer s mod writers); with more than one, sequences land out of
// order and WRITEs overlap one another.
TearingRun RunWriterAndReaders(uint64_t offset, DmaOrder order, bool reads_at_resume = true,
                               uint32_t writers = 1) {
  NicProfile profile = DefaultProfile();
  profile.dma_read_order = order;
  SimOptions options;
  options.reads_at_resume = reads_at_resume;
  // Compute server 0 runs the writer; servers 1 and 2 run four readers each.
  auto cluster = MakeCluster(SmallTopology(1, 3, 4), profile, options);
  TearingRun run;
  run.expected_lines =
      static_cast<uint32_t>((offset + kBufferBytes - 1) / kCacheline - offset / kCacheline + 1);
  uint32_t writers_done = 0;
  const GlobalAddress buffer = GlobalAddress::Host(0, offset);
  cluster->Run([&](Client& client) {
    if (client.location().compute_server == 0) {
      const uint32_t writer = client.location().coroutine;
      if (writer >= writers) return;
      std::vector<uint8_t> data(kBufferBytes);
      for (uint32_t sequence = writer; sequence < kWrites; sequence += writers) {
        data.assign(kBufferBytes, SequenceByte(sequence));
        client.Write(buffer, data.data(), kBufferBytes);
      }
      ++writers_done;
      return;
    }
    std::vector<uint8_t> data(kBufferBytes);
    int reads_after = 0;
    while (reads_after < 5) {
      const bool after = writers_done == writers;
      client.Read(buffer, data.data(), kBufferBytes);
      (after ? run.after_writes : run.during_writes).push_back(SplitIntoLines(data, offset));
      if (after) ++reads_after;
    }
  });
  run.torn_reads = cluster->torn_reads();
  run.reads_at_resume = cluster->reads_resolved_at_resume();
  return run;
}

uint64_t CountTorn(const std::vector<LineValues>& reads) {
  uint64_t torn = 0;
  for (const LineValues& read : reads) torn += read.Torn() ? 1 : 0;
  return torn;
}

std::string Describe(const LineValues& read) {
  std::string text;
  for (uint8_t value : read.values) text += std::to_string(value) + " ";
  return text;
}

class DmaTearing : public ::testing::TestWithParam<uint64_t> {
 protected:
  uint64_t Offset() const { return kAlignedOffset + GetParam(); }
};

TEST_P(DmaTearing, ReadsTearOnlyAtRemoteCachelineBoundaries) {
  ASSERT_EQ(DefaultProfile().cacheline_bytes, kCacheline);
  const TearingRun run = RunWriterAndReaders(Offset(), DmaOrder::kAscending);
  ASSERT_GT(run.during_writes.size(), 500u);
  for (const LineValues& read : run.during_writes) {
    ASSERT_TRUE(read.uniform_lines) << Describe(read);
    ASSERT_EQ(read.values.size(), run.expected_lines);
  }
}

TEST_P(DmaTearing, ConcurrentWriterTearsSomeReadsAndTheClusterCountsThem) {
  const TearingRun run = RunWriterAndReaders(Offset(), DmaOrder::kAscending);
  const uint64_t torn = CountTorn(run.during_writes);
  EXPECT_GT(torn, 20u);
  EXPECT_GT(run.torn_reads, 0u);
  // A READ shows two values exactly when it saw part of one WRITE.
  EXPECT_EQ(run.torn_reads, torn);
}

TEST_P(DmaTearing, ReadsAfterTheLastWriteAreWholeAndCurrent) {
  const TearingRun run = RunWriterAndReaders(Offset(), DmaOrder::kAscending);
  ASSERT_EQ(run.after_writes.size(), 8u * 5);
  for (const LineValues& read : run.after_writes) {
    EXPECT_EQ(read.values, std::vector<uint8_t>(run.expected_lines, SequenceByte(kWrites - 1)))
        << Describe(read);
  }
}

// With both sweeps ascending, line j is new iff
//   write_start + write_window * (j+1)/(n+1) <= read_start + read_window * (j+1)/(n+1),
// and the READ's window (PCIe read latency + transfer) is longer than the
// WRITE's (transfer + PCIe write latency): the READ falls behind the WRITE as
// it moves up, so the low lines it fetched first are the older ones. A torn
// READ therefore only ever rises from low to high address.
TEST_P(DmaTearing, AscendingOrderTearsRiseWithAddress) {
  const NicProfile profile = DefaultProfile();
  ASSERT_GT(profile.pcie_read_latency_ns, profile.pcie_write_latency_ns)
      << "the derivation above assumes a READ's DMA window outlasts a WRITE's";
  const TearingRun run = RunWriterAndReaders(Offset(), DmaOrder::kAscending);
  uint64_t rising = 0;
  for (const LineValues& read : run.during_writes) {
    EXPECT_FALSE(read.Falls()) << Describe(read);
    rising += read.Rises() ? 1 : 0;
  }
  EXPECT_GT(rising, 20u);
}

// Descending: the READ fetches high lines first while the WRITE still lands
// low lines first, so whatever the windows, new data is only ever in the low
// lines: a torn READ falls from low to high address.
TEST_P(DmaTearing, DescendingOrderTearsFallWithAddress) {
  const TearingRun run = RunWriterAndReaders(Offset(), DmaOrder::kDescending);
  uint64_t falling = 0;
  for (const LineValues& read : run.during_writes) {
    ASSERT_TRUE(read.uniform_lines) << Describe(read);
    EXPECT_FALSE(read.Rises()) << Describe(read);
    falling += read.Falls() ? 1 : 0;
  }
  EXPECT_GT(falling, 20u);
  EXPECT_EQ(run.torn_reads, CountTorn(run.during_writes));
}

TEST_P(DmaTearing, RandomOrderTearsBothWays) {
  const TearingRun run = RunWriterAndReaders(Offset(), DmaOrder::kRandom);
  uint64_t rising = 0, falling = 0;
  for (const LineValues& read : run.during_writes) {
    ASSERT_TRUE(read.uniform_lines) << Describe(read);
    rising += read.Rises() ? 1 : 0;
    falling += read.Falls() ? 1 : 0;
  }
  EXPECT_GT(rising, 10u);
  EXPECT_GT(falling, 10u);
  EXPECT_EQ(run.torn_reads, CountTorn(run.during_writes));
}

// A READ resolved when its client resumes, a microsecond or so after its DMA,
// must return what its DMA sampled: the WRITEs that land in between are
// undone from the write log, which must still hold those that landed during
// the DMA (four writers log them faster than one READ's round trip). The
// same run with every READ resolved by its own event, at its DMA's end, is
// the reference.
TEST_P(DmaTearing, ReadsResolvedAtResumptionSeeWhatTheirDmaSampled) {
  constexpr uint32_t kWriters = 4;
  for (DmaOrder order : {DmaOrder::kAscending, DmaOrder::kDescending}) {
    const TearingRun at_resume = RunWriterAndReaders(Offset(), order, true, kWriters);
    const TearingRun by_event = RunWriterAndReaders(Offset(), order, false, kWriters);
    EXPECT_EQ(by_event.reads_at_resume, 0u);
    EXPECT_GT(at_resume.reads_at_resume, at_resume.during_writes.size() / 2);
    ASSERT_EQ(at_resume.during_writes.size(), by_event.during_writes.size());
    for (size_t i = 0; i < at_resume.during_writes.size(); ++i) {
      ASSERT_EQ(at_resume.during_writes[i].values, by_event.during_writes[i].values)
          << DmaOrderName(order) << " READ " << i;
    }
    EXPECT_EQ(at_resume.torn_reads, by_event.torn_reads);
    EXPECT_GT(CountTorn(at_resume.during_writes), 20u);
  }
}

INSTANTIATE_TEST_SUITE_P(Offsets, DmaTearing, ::testing::Values(0, 24),
                         [](const ::testing::TestParamInfo<uint64_t>& info) {
                           return info.param == 0 ? std::string("LineAligned")
                                                  : "Plus" + std::to_string(info.param);
                         });

// A READ whose response queues long behind others on the way back is
// resolved by its own event after all (the write logs stay short), and
// returns the same bytes either way: the four readers of one compute server
// fetch 64 KiB each from one memory server, the other four 1 KiB, while a
// writer rewrites the first KiB.
TEST(DmaTearingQuiet, LongDelayedReadsKeepTheirEventsAndTheirBytes) {
  constexpr uint32_t kReadBytes = 64 * 1024;
  const auto run = [](bool reads_at_resume, uint64_t* reads_at_resume_count) {
    SimOptions options;
    options.reads_at_resume = reads_at_resume;
    auto cluster = MakeCluster(SmallTopology(1, 3, 4), DefaultProfile(), options);
    const GlobalAddress buffer = GlobalAddress::Host(0, kAlignedOffset);
    std::vector<std::vector<uint8_t>> seen;
    cluster->Run([&](Client& client) {
      std::vector<uint8_t> data(kReadBytes);
      if (client.location().compute_server == 0) {
        if (client.location().coroutine != 0) return;
        for (uint32_t sequence = 0; sequence < kWrites; ++sequence) {
          data.assign(kBufferBytes, SequenceByte(sequence));
          client.Write(buffer, data.data(), kBufferBytes);
        }
        return;
      }
      const uint32_t length = client.location().compute_server == 1 ? kReadBytes : kBufferBytes;
      for (int i = 0; i < 20; ++i) {
        client.Read(buffer, data.data(), length);
        seen.emplace_back(data.begin(), data.begin() + kBufferBytes);
      }
    });
    *reads_at_resume_count = cluster->reads_resolved_at_resume();
    return seen;
  };
  uint64_t at_resume_count = 0, by_event_count = 0;
  const std::vector<std::vector<uint8_t>> at_resume = run(true, &at_resume_count);
  const std::vector<std::vector<uint8_t>> by_event = run(false, &by_event_count);
  ASSERT_EQ(at_resume.size(), 8u * 20);
  EXPECT_GT(at_resume_count, 0u);
  EXPECT_LT(at_resume_count, at_resume.size());
  EXPECT_EQ(by_event_count, 0u);
  EXPECT_EQ(at_resume, by_event);
}

// Without a WRITE in flight nothing tears, whatever the order: first a run in
// which only readers touch memory set up outside simulated time, then a
// readers-only run after a run that did tear.
TEST(DmaTearingQuiet, ReadersAloneNeverTear) {
  for (DmaOrder order : {DmaOrder::kAscending, DmaOrder::kDescending, DmaOrder::kRandom}) {
    NicProfile profile = DefaultProfile();
    profile.dma_read_order = order;
    auto cluster = MakeCluster(SmallTopology(1, 3, 4), profile);
    std::vector<uint8_t> pattern(kBufferBytes);
    for (uint32_t i = 0; i < kBufferBytes; ++i) {
      pattern[i] = static_cast<uint8_t>(i / kCacheline + 1);
    }
    cluster->memory(0, MemorySpace::kHost).Poke(kAlignedOffset, pattern.data(), kBufferBytes);
    uint64_t reads = 0;
    cluster->Run([&](Client& client) {
      std::vector<uint8_t> data(kBufferBytes);
      for (int i = 0; i < 50; ++i) {
        client.Read(GlobalAddress::Host(0, kAlignedOffset), data.data(), kBufferBytes);
        for (uint32_t j = 0; j < kBufferBytes; ++j) {
          ASSERT_EQ(data[j], j / kCacheline + 1) << DmaOrderName(order) << " byte " << j;
        }
        ++reads;
      }
    });
    EXPECT_EQ(reads, 12u * 50) << DmaOrderName(order);
    EXPECT_EQ(cluster->torn_reads(), 0u) << DmaOrderName(order);
  }
}

TEST(DmaTearingQuiet, ReadersRunAfterAWriterRunNeverTear) {
  auto cluster = MakeCluster(SmallTopology(1, 3, 4));
  const GlobalAddress buffer = GlobalAddress::Host(0, kAlignedOffset);
  cluster->Run([&](Client& client) {
    std::vector<uint8_t> data(kBufferBytes);
    if (client.location().index == 0) {
      for (uint32_t sequence = 0; sequence < kWrites; ++sequence) {
        data.assign(kBufferBytes, SequenceByte(sequence));
        client.Write(buffer, data.data(), kBufferBytes);
      }
    } else if (client.location().compute_server != 0) {
      for (int i = 0; i < 100; ++i) client.Read(buffer, data.data(), kBufferBytes);
    }
  });
  const uint64_t torn_while_writing = cluster->torn_reads();
  ASSERT_GT(torn_while_writing, 0u);

  cluster->Run([&](Client& client) {
    std::vector<uint8_t> data(kBufferBytes);
    for (int i = 0; i < 50; ++i) {
      client.Read(buffer, data.data(), kBufferBytes);
      ASSERT_EQ(data, std::vector<uint8_t>(kBufferBytes, SequenceByte(kWrites - 1)));
    }
  });
  EXPECT_EQ(cluster->torn_reads(), torn_while_writing);
}

// A WRITE's lines land from when its PCIe transfer starts, not from when it
// reaches the memory server: behind another WRITE on the bus, it is not seen
// before its turn. Two 64 KiB loopback WRITEs are posted together; the second
// one's transfer waits about 5 us for the first, and a READ of it done within
// that wait sees the old bytes.
TEST(DmaTearing, AWriteQueuedOnPcieLandsOnlyOnceItsTransferStarts) {
  Topology topology = SmallTopology(1, 1, 1);
  topology.threads_per_compute_server = 3;
  topology.colocated = true;
  auto cluster = MakeCluster(topology);
  constexpr uint32_t kBytes = 64 << 10;
  const GlobalAddress first = GlobalAddress::Host(0, 1 << 20);
  const GlobalAddress second = GlobalAddress::Host(0, 2 << 20);
  uint64_t early = 0;
  uint64_t early_done_ns = 0;
  uint64_t late = 0;
  cluster->Run([&](Client& client) {
    const std::vector<uint8_t> ones(kBytes, 1);
    switch (client.location().thread) {
      case 0:
        client.Write(first, ones.data(), kBytes);
        break;
      case 1:
        client.Write(second, ones.data(), kBytes);
        break;
      default:
        client.SleepUntil(2'000);
        client.Read(second, &early, sizeof(early));
        early_done_ns = client.NowNanoseconds();
        client.SleepUntil(20'000);
        client.Read(second, &late, sizeof(late));
    }
  });
  ASSERT_LT(early_done_ns, 4'500u) << "the READ must end before the second transfer starts";
  EXPECT_EQ(early, 0u);
  EXPECT_EQ(late, 0x0101010101010101u);
}

}  // namespace
}  // namespace dmbench::rdma::sim
