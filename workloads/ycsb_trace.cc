#include "workloads/ycsb_trace.h"

#include <xxhash.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "harness/rdma/errors.h"

namespace dmbench::workloads {
namespace {

struct Verb {
  const char* name;
  OpType type;
  bool scan;
};
constexpr std::array<Verb, 5> kVerbs = {{{"INSERT", OpType::kInsert, false},
                                         {"READ", OpType::kLookup, false},
                                         {"UPDATE", OpType::kUpdate, false},
                                         {"SCAN", OpType::kRange, true},
                                         {"DELETE", OpType::kDelete, false}}};

constexpr const char* kAllowed =
    "expected 'INSERT|READ|UPDATE|DELETE <table> <key> ...' or 'SCAN <table> <key> <records> "
    "...' (YCSB's basic database output), a blank line, or a YCSB report line starting with '['";

// The next space-separated word of `line` from `at`, advancing `at`.
std::string_view NextWord(std::string_view line, size_t& at) {
  while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
  const size_t start = at;
  while (at < line.size() && line[at] != ' ' && line[at] != '\t') ++at;
  return line.substr(start, at - start);
}

// The line's start, printable and short, for messages.
std::string Excerpt(std::string_view line) {
  std::string text;
  for (char c : line.substr(0, 60)) {
    text += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return "'" + text + (line.size() > 60 ? "...'" : "'");
}

}  // namespace

uint64_t YcsbKey(std::string_view ycsb_key) {
  const uint64_t hash = XXH3_64bits(ycsb_key.data(), ycsb_key.size());
  return 1 + hash % (UINT64_MAX - 1);
}

YcsbTrace ReadYcsbTrace(const std::string& path, const std::string& what, bool inserts_only) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw ConfigError(what + ": cannot read '" + path + "': " + std::strerror(errno) +
                      " (a YCSB trace: the output of YCSB's basic database)");
  }
  YcsbTrace trace;
  trace.path = path;
  std::string line;
  while (std::getline(file, line)) {
    ++trace.lines;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // a file written on Windows
    // Built only for an error: most lines of a trace of millions have none.
    const auto where = [&] { return path + ":" + std::to_string(trace.lines) + ": "; };
    size_t at = 0;
    const std::string_view text(line);
    const std::string_view verb_name = NextWord(text, at);
    if (verb_name.empty() || verb_name.front() == '[') continue;
    const Verb* verb = nullptr;
    for (const Verb& candidate : kVerbs) {
      if (verb_name == candidate.name) verb = &candidate;
    }
    if (verb == nullptr)
      throw ConfigError(where() + "unknown line " + Excerpt(text) + "; " + kAllowed);
    if (inserts_only && verb->type != OpType::kInsert) {
      throw ConfigError(where() + verb->name + " in a load trace (" + what +
                        "): a load file holds the INSERTs of YCSB's load phase only");
    }
    const std::string_view table = NextWord(text, at);
    const std::string_view key = NextWord(text, at);
    if (table.empty() || key.empty() || key.front() == '[') {
      throw ConfigError(where() + "no key in " + Excerpt(text) + "; " + kAllowed);
    }
    TraceOperation operation{verb->type, 0, YcsbKey(key)};
    if (verb->scan) {
      const std::string_view count = NextWord(text, at);
      uint64_t records = 0;
      const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), records);
      if (count.empty() || error != std::errc() || end != count.data() + count.size() ||
          records < 1 || records > WorkloadSpec::kMaxScan) {
        throw ConfigError(where() + "SCAN needs a record count in [1, " +
                          std::to_string(WorkloadSpec::kMaxScan) + "] after its key, got " +
                          Excerpt(count));
      }
      operation.scan_records = static_cast<uint32_t>(records);
    }
    trace.operations.push_back(operation);
  }
  if (file.bad()) {
    throw ConfigError(what + ": reading '" + path + "' failed after line " +
                      std::to_string(trace.lines) + ": " + std::strerror(errno));
  }
  if (trace.operations.empty()) {
    throw ConfigError(what + ": '" + path + "' holds no operation (" + std::to_string(trace.lines) +
                      " lines); " + kAllowed);
  }
  return trace;
}

}  // namespace dmbench::workloads
