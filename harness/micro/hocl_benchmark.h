// Sherman §5.7 / Fig. 16: the hierarchical on-chip lock under skew. Clients
// acquire and release the locks of nodes chosen by a Zipfian key
// (lock_popularity.h), through the indexes' own lock code, for the lock
// variants of the figure: RDMA spin locks in host memory, +on-chip memory,
// local lock tables without wait queues (a point the paper's text states,
// not one of its bars), +hierarchical (local lock tables with FIFO wait
// queues, no handover), +handover. As in Sherman's lock benchmark
// (Tree::lock_bench), a client posts its release without waiting for it, and
// handover stops after 8 in a row (kMaxHandOverTime).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/micro/lock_popularity.h"
#include "harness/micro/micro_runner.h"
#include "indexes/blink/tree_options.h"
#include "indexes/common/lock_options.h"

namespace dmbench::micro {

// The variant with local lock tables but no wait queues.
inline constexpr const char* kHoclNoWaitQueues = "+Local (no queues)";

struct HoclVariant {
  std::string name;
  indexes::LockOptions options;
};

struct HoclBenchmarkConfig {
  std::vector<double> thetas = {0.99};
  uint32_t locks = 10240;
  // Keys drawn Zipfian and hashed to locks, or 0 for the locks themselves
  // drawn Zipfian (lock_popularity.h).
  uint64_t key_space = kShermanLockBenchKeySpace;
  std::vector<HoclVariant> variants = DefaultVariants(indexes::TreeOptions::Sherman().handover);
  // Post the release without waiting for it (Sherman's lock_bench: unlock_addr
  // with async set), or wait for it as the trees do.
  bool await_release = false;

  // 176 clients: 8 x 22 on the paper's eight machines, each a memory server
  // and a compute server (Sherman §5.1), the locks on memory server 0: its
  // own machine's clients reach them over loopback.
  rdma::Topology topology = DefaultTopology();

  // The paper's four steps and the tables without wait queues, +Handover
  // with at most `max_handovers` in a row (the Sherman preset's, Sherman's
  // kMaxHandOverTime, by default).
  static std::vector<HoclVariant> DefaultVariants(uint32_t max_handovers);
  static rdma::Topology DefaultTopology();
};

nlohmann::json RunHoclBenchmark(const HoclBenchmarkConfig& config, const MicroOptions& options,
                                std::ostream& table);

}  // namespace dmbench::micro
