// A run that replays YCSB traces (workload.trace, workload.trace_load): the
// load trace's keys are bulkloaded, the run trace's operations are dealt to
// the clients.
//
// Dealing (workload.trace_split): with C clients, round-robin gives
// operation i (in file order) to client i mod C; blocks gives client c the
// operations [c n / C, (c + 1) n / C). Each client issues its share in order.
// A run lasts its window, not its trace: a client that reaches the end of
// its share starts it again (a second pass, its INSERTs then update), and the
// result's trace.max_passes says how many passes the busiest client began,
// so that a reader sees when a trace was too short for the window.
//
// The values written are the generated mixes' (OperationStream::ValueOf) and
// the bulkloaded ones KeySpace::BulkloadValue's, so the consistency checker
// works as for any run.
//
// Thread safety: construct once; ForClient() and the streams may be used
// from the clients' threads, each stream by its own client only; ToJson()
// after every client is done.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "workloads/operation_stream.h"
#include "workloads/workload_scale.h"
#include "workloads/workload_spec.h"
#include "workloads/ycsb_trace.h"

namespace dmbench::workloads {

class TraceWorkload {
 public:
  // Reads the traces `spec` names (ConfigError on bad input, or when the run
  // trace has fewer operations than `clients`).
  TraceWorkload(const WorkloadSpec& spec, uint32_t clients, uint64_t seed);

  // The load trace's keys, sorted and distinct, with their bulkload values;
  // empty without a load trace.
  std::vector<std::pair<uint64_t, uint64_t>> BulkloadEntries() const;

  // Client `client`'s stream; it must outlive no TraceWorkload.
  std::unique_ptr<OperationStream> ForClient(uint32_t client);

  // Result section "trace" (results/SCHEMA.md).
  nlohmann::json ToJson() const;

  // The trace's key concentration, measured: its distinct keys (loaded or
  // touched), and the shares of its operations on the hottest and the ten
  // hottest keys.
  WorkloadScale Scale() const;

 private:
  class Stream;
  // A client's operations: indices first, first + stride, ... (count of them) of the run trace.
  struct Share {
    size_t first, stride, count;
  };
  Share ShareOf(uint32_t client) const;

  WorkloadSpec spec_;
  uint32_t clients_;
  uint64_t seed_;
  YcsbTrace run_;
  YcsbTrace load_;
  // Passes begun per client, each written by its own client's stream.
  std::vector<uint64_t> passes_;
};

}  // namespace dmbench::workloads
