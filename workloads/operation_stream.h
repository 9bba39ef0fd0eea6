// One client's stream of operations, whatever makes it: the generated mixes
// (client_workload.h) or a YCSB trace (trace_workload.h). The driver asks a
// client's stream for its next operation and never looks behind it.
//
// Thread safety: a stream belongs to one client and is used by it alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "workloads/workload_spec.h"

namespace dmbench::workloads {

struct Operation {
  OpType type;
  uint64_t key;
  // Unique per operation and never 0, so every value read back traces to one write; set for
  // every type, used by kInsert and kUpdate.
  uint64_t value;
  // kRange: keys [key, range_end), at most `limit` results (0 = no limit).
  uint64_t range_end;
  size_t limit;
};

class OperationStream {
 public:
  // Values are (client_index + 1) << kValueShift | operation number; client_index must stay below
  // kMaxClients and a client may issue up to kMaxOperations operations. Every value is above
  // KeySpace::kMaxBulkloadValue, so a value read back tells a bulkloaded one from a write's.
  static constexpr int kValueShift = 40;
  static constexpr uint32_t kMaxClients = uint32_t{1} << 23;
  static constexpr uint64_t kMaxOperations = uint64_t{1} << kValueShift;
  // The range end of a scan: a record count from a start key, no key bound.
  static constexpr uint64_t kNoRangeEnd = std::numeric_limits<uint64_t>::max();

  virtual ~OperationStream() = default;
  // Throws std::overflow_error after kMaxOperations operations.
  virtual Operation Next() = 0;
  // Whether operations may be drawn before they run without changing them
  // (driver/lookahead_operations.h): false when Next reads state that other
  // clients' streams change, as YCSB-D's latest key is, since drawing early
  // would change what it reads.
  virtual bool DrawsAheadUnchanged() const { return false; }
  // The last `count` operations Next returned were never run: a client drew
  // them ahead (driver/lookahead_operations.h) and its run ended first. A
  // stream whose report counts what it returned (a trace's passes) takes
  // them back; the next Next returns the first of them again. `count` is at
  // most what Next has returned.
  virtual void Unread(size_t count) { (void)count; }

  // The value of operation `number` of client `client_index`.
  static uint64_t ValueOf(uint32_t client_index, uint64_t number) {
    if (number >= kMaxOperations) {
      throw std::overflow_error("client " + std::to_string(client_index) +
                                " has used up its unique values");
    }
    return (uint64_t{client_index} + 1) << kValueShift | number;
  }
};

}  // namespace dmbench::workloads
