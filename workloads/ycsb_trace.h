// Operations read from a trace in the output format of YCSB's basic database
// (`bin/ycsb load|run basic ...`, which prints one line per operation), the
// format the SMART and CHIME artifacts generate their YCSB workloads in:
//
//   INSERT <table> <key> [ <field>=<value> ... ]
//   READ <table> <key> [ <fields> ]
//   UPDATE <table> <key> [ <field>=<value> ... ]
//   SCAN <table> <start key> <record count> [ <fields> ]
//   DELETE <table> <key>
//
// Everything after the key (after the record count for SCAN) is field data
// and ignored; blank lines and YCSB's own measurement lines (those starting
// with '[', e.g. "[OVERALL], RunTime(ms), 1234") are skipped. Any other line
// is an error naming the file, the line number and what is allowed.
//
// Keys: a YCSB key is a string ("user6284781860667377211"); its key here is
// YcsbKey(): the XXH3-64 hash (seed 0) of the key's bytes, mapped onto the
// indexes' user keys [1, 2^64 - 2] by reducing modulo 2^64 - 2 and adding 1.
// The mapping is deterministic and spreads keys as YCSB's own hashed key
// order does; two YCSB keys colliding is possible but has probability about
// n^2 / 2^65 for n distinct keys (3e-6 for a billion).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/workload_spec.h"

namespace dmbench::workloads {

struct TraceOperation {
  OpType type;            // INSERT: kInsert, READ: kLookup, UPDATE: kUpdate, SCAN: kRange,
                          // DELETE: kDelete
  uint32_t scan_records;  // SCAN's record count, [1, WorkloadSpec::kMaxScan]; 0 otherwise
  uint64_t key;           // YcsbKey() of the line's key
};

struct YcsbTrace {
  std::string path;
  uint64_t lines = 0;  // every line of the file, skipped ones included
  std::vector<TraceOperation> operations;
};

uint64_t YcsbKey(std::string_view ycsb_key);

// Reads the trace at `path` (`what` names the config field it came from, for
// messages). `inserts_only`: a load file, where every operation must be an
// INSERT. Throws ConfigError: a file that cannot be read, a bad line
// ("FILE:LINE: ..." with the line's start and what is allowed), or no
// operation at all.
YcsbTrace ReadYcsbTrace(const std::string& path, const std::string& what, bool inserts_only);

}  // namespace dmbench::workloads
