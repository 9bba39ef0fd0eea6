// Transparent huge pages for the process's heap, which glibc maps in 4 KiB
// pages unless its tunable glibc.malloc.hugetlb says otherwise.
//
// A simulation reads its heap at random: index caches, cached nodes, the
// bulkload's shape, the loaded-key bitmap, the coroutines' stacks. Each read
// of a cold 4 KiB page is a TLB miss, and on a virtual machine (nested page
// tables) a miss costs a walk of two tables. With the tunable set, ae/
// bench-sim.sh's read-intensive runs were 7% faster at 10 M keys and 9% at
// 1 B, for 2% more resident memory; results do not depend on it.
//
// glibc reads its tunables once, when the process starts, from the
// environment variable GLIBC_TUNABLES, so a process that wants them must be
// started with it: dmbench re-executes itself once, first thing in main().
#pragma once

#include <optional>
#include <string>

namespace dmbench {

// The value GLIBC_TUNABLES needs for malloc to advise huge pages, given its
// value now (null when unset): `current` with glibc.malloc.hugetlb=1
// appended. nullopt when `current` already names glibc.malloc.hugetlb,
// whatever its value: a user's choice stands, and a process already
// re-executed does not loop.
std::optional<std::string> TunablesWithHugePageHeap(const char* current);

// Re-executes this process (its binary, the same arguments) with
// GLIBC_TUNABLES as TunablesWithHugePageHeap gives it. Returns, having done
// nothing, when that is nullopt, when the kernel offers no transparent huge
// pages, in a sanitizer build (whose allocator ignores glibc's tunables), or
// when the exec fails: the process then runs as it would have. Call it
// first in main(), before any thread starts or any file is opened.
void ReexecWithHugePageHeap(char** argv);

}  // namespace dmbench
