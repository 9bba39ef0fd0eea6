// The paged store of a simulated address space reads what was written,
// zeros elsewhere, and allocates only the pages written.
#include "harness/rdma/sim/paged_bytes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "harness/rdma/errors.h"

namespace dmbench::rdma::sim {
namespace {

constexpr uint64_t kPage = uint64_t{1} << PagedBytes::kPageBits;

// Random writes and reads at every alignment, within and across pages,
// against a flat array.
TEST(PagedBytes, ReadsWhatAFlatArrayHolds) {
  constexpr uint64_t kSize = 64 * kPage + 100;  // a partial last page
  PagedBytes paged(kSize);
  std::vector<uint8_t> flat(kSize, 0);
  std::mt19937_64 random(3);
  for (int step = 0; step < 4000; ++step) {
    const uint64_t length = 1 + random() % (3 * kPage);
    const uint64_t offset = random() % (kSize - length + 1);
    if (step % 2 == 0) {
      std::vector<uint8_t> data(length);
      for (uint8_t& byte : data) byte = static_cast<uint8_t>(random());
      paged.Write(offset, data.data(), length);
      std::copy(data.begin(), data.end(), flat.begin() + static_cast<std::ptrdiff_t>(offset));
    } else {
      std::vector<uint8_t> got(length, 0xAB);
      paged.Read(offset, got.data(), length);
      ASSERT_TRUE(
          std::equal(got.begin(), got.end(), flat.begin() + static_cast<std::ptrdiff_t>(offset)))
          << "read of " << length << " at " << offset;
    }
  }
}

TEST(PagedBytes, UnwrittenBytesReadAsZeroAndCostNoPage) {
  PagedBytes paged(uint64_t{1} << 40);  // 1 TiB of address space
  std::vector<uint8_t> got(3 * kPage, 0xFF);
  paged.Read((uint64_t{1} << 39) + 17, got.data(), got.size());
  EXPECT_EQ(got, std::vector<uint8_t>(3 * kPage, 0));
  EXPECT_EQ(paged.pages(), 0u);
  // A write inside one page takes one; one crossing an edge takes two.
  const uint64_t word = 0x0123456789ABCDEF;
  paged.Write(5 * kPage + 8, &word, sizeof(word));
  EXPECT_EQ(paged.pages(), 1u);
  paged.Write(9 * kPage - 4, &word, sizeof(word));
  EXPECT_EQ(paged.pages(), 3u);
  uint64_t read = 0;
  paged.Read(9 * kPage - 4, &read, sizeof(read));
  EXPECT_EQ(read, word);
  // The rest of a written page still reads as zero.
  paged.Read(5 * kPage + 16, &read, sizeof(read));
  EXPECT_EQ(read, 0u);
}

// A space no process can map (1 PiB, past x86-64's 128 TiB of user
// addresses) is refused when built, naming what to lower, not at a first
// write far into a run.
TEST(PagedBytes, ASpaceBeyondTheAddressSpaceIsRefused) {
  try {
    PagedBytes paged(uint64_t{1} << 50);
    FAIL() << "a 1 PiB space was mapped";
  } catch (const MemoryExhaustedError& error) {
    EXPECT_NE(std::string(error.what()).find("lower topology.host_memory_mib"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace dmbench::rdma::sim
