// What a run holds in this process's memory at least, against what the
// machine has: a key space far beyond it would otherwise end in an
// allocation failure or the kernel's OOM killer, long after the start.
#pragma once

#include <cstdint>
#include <string>

#include "harness/driver/run_config.h"

namespace dmbench::driver {

// The machine's physical memory, bytes (0 when it cannot be read).
uint64_t PhysicalMemoryBytes();

// The most this process has held resident so far, bytes (the kernel's
// high-water mark, getrusage's ru_maxrss; 0 when it cannot be read). What
// `/usr/bin/time -v` reports as "Maximum resident set size", read from
// inside so that every result carries it.
uint64_t PeakResidentBytes();

// This process's resident memory in transparent huge pages now, bytes
// (AnonHugePages of /proc/self/smaps_rollup; 0 when it cannot be read):
// whether the heap got the huge pages it asked for
// (harness/util/huge_page_heap.h), which moves the simulator's speed.
uint64_t HugePageResidentBytes();

// The least this process holds for a run of `config`: the bulkloaded
// tree's shape (16 bytes per node), a trace's load file and the checker's
// initial values when asked for, every compute server's speculative-lookup
// hint table when the index has one, and, on the simulated fabric, whose memory
// servers live in this process, the bulkloaded nodes (or their bookkeeping
// until first touch, backend.deferred_bulkload) and the NICs' atomic
// buckets. `atomic_buckets`: the NIC profile's, per memory server (0 for a
// real cluster).
uint64_t RunMemoryLowerBound(const RunConfig& config, uint64_t atomic_buckets);

// Throws ConfigError naming `what` (the fields that ask for it) when
// `bytes` exceed this machine's physical memory.
void RequireMemory(uint64_t bytes, const std::string& what);

// Throws ConfigError unless this process can run every client of
// `topology` as a coroutine on the simulated fabric: each client's
// guard-paged stack is two memory mappings, each memory server's host and
// on-chip memory one each, within the kernel's per-process limit
// (vm.max_map_count).
void RequireSimulatedTopology(const rdma::Topology& topology);

// Throws ConfigError unless this machine can hold a run of `config`: its
// memory (RunMemoryLowerBound) and, on the simulated fabric,
// RequireSimulatedTopology.
void RequireMachineFor(const RunConfig& config);

}  // namespace dmbench::driver
