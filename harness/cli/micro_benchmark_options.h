// The options of `dmbench micro` (micro_command.cc) and the config of each
// of its benchmarks read from the parsed options. Every reader refuses a
// value out of its range with a ConfigError naming the option. Each reads
// only the options of its own benchmark and the topology's, so a benchmark
// that is not run checks none of its options.
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "harness/micro/atomic_benchmark.h"
#include "harness/micro/cpu_cost_benchmark.h"
#include "harness/micro/hocl_benchmark.h"
#include "harness/micro/interference_benchmark.h"
#include "harness/micro/scale_up_benchmark.h"
#include "harness/micro/spinlock_benchmark.h"
#include "harness/micro/verb_benchmark.h"

namespace dmbench::cli {

// Every option of `dmbench micro`, with its help text and default.
boost::program_options::options_description MicroBenchmarkOptions();
// Refuses a benchmark name `dmbench micro` does not know, listing those it does.
void RequireBenchmarkName(const std::string& benchmark);
// --latency-from: "all" (or not given) samples every client, a number one
// compute server's clients (MicroOptions::latency_compute_server).
std::optional<uint32_t> LatencyFrom(const boost::program_options::variables_map& values);

micro::VerbBenchmarkConfig VerbConfigFrom(const boost::program_options::variables_map& values);
micro::AtomicBenchmarkConfig AtomicConfigFrom(const boost::program_options::variables_map& values);
micro::SpinlockBenchmarkConfig SpinlockConfigFrom(
    const boost::program_options::variables_map& values);
micro::HoclBenchmarkConfig HoclConfigFrom(const boost::program_options::variables_map& values);
micro::InterferenceBenchmarkConfig InterferenceConfigFrom(
    const boost::program_options::variables_map& values);
micro::ScaleUpBenchmarkConfig ScaleUpConfigFrom(
    const boost::program_options::variables_map& values);
// Real time of this machine: the NIC profile and topology options do not
// apply, only `seed` (of the buffers, keys and workload) and its own options.
micro::CpuCostBenchmarkConfig CpuCostConfigFrom(const boost::program_options::variables_map& values,
                                                uint64_t seed);

}  // namespace dmbench::cli
