// SMART (ASPLOS'24) Figs. 3 and 4: how far one compute server's small
// one-sided verbs scale with threads and per-thread depth, with the
// driver's doorbells or a doorbell per thread. The shape of SMART's own
// bench tool (test/test_rdma in its artifact): one compute server, T
// threads of one coroutine, each posting `depth` 8 B READs or WRITEs, each
// with its own post and doorbell, then waiting for all of them; one memory
// server; each thread in its own slice of memory.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/micro/micro_runner.h"
#include "harness/rdma/work_request.h"

namespace dmbench::micro {

struct ScaleUpBenchmarkConfig {
  std::vector<rdma::Verb> verbs = {rdma::Verb::kRead, rdma::Verb::kWrite};
  // SMART's thread set (its artifact's ae/collect/common.sh).
  std::vector<uint32_t> thread_counts = {1, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96};
  std::vector<uint32_t> depths = {8};  // Fig. 3; Fig. 4 sweeps {1, 4, 8, 16, 24, 32}
  // false: per-thread QP on the driver's doorbells; true: per-thread doorbell.
  std::vector<bool> per_thread_doorbells = {false, true};
  uint32_t io_bytes = 8;
};

nlohmann::json RunScaleUpBenchmark(const ScaleUpBenchmarkConfig& config,
                                   const MicroOptions& options, std::ostream& table);

}  // namespace dmbench::micro
