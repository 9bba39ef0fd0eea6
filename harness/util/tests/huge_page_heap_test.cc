#include "harness/util/huge_page_heap.h"

#include <gtest/gtest.h>

namespace dmbench {
namespace {

TEST(HugePageHeap, AppendsTheTunable) {
  EXPECT_EQ(TunablesWithHugePageHeap(nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(TunablesWithHugePageHeap(""), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(TunablesWithHugePageHeap("glibc.malloc.arena_max=2"),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

TEST(HugePageHeap, LeavesAChosenValueAlone) {
  EXPECT_EQ(TunablesWithHugePageHeap("glibc.malloc.hugetlb=1"), std::nullopt);
  EXPECT_EQ(TunablesWithHugePageHeap("glibc.malloc.hugetlb=0"), std::nullopt);
  EXPECT_EQ(TunablesWithHugePageHeap("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2"),
            std::nullopt);
}

TEST(HugePageHeap, MatchesWholeNamesOnly) {
  EXPECT_EQ(TunablesWithHugePageHeap("glibc.malloc.hugetlbx=1"),
            "glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1");
  EXPECT_EQ(TunablesWithHugePageHeap("x.glibc.malloc.hugetlb=0"),
            "x.glibc.malloc.hugetlb=0:glibc.malloc.hugetlb=1");
}

}  // namespace
}  // namespace dmbench
