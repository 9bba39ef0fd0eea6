#include "harness/fuzz/ycsb_trace_target.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/util/file_output.h"
#include "workloads/trace_workload.h"

namespace dmbench::fuzz {

namespace {

constexpr const char* kVerbs[] = {"INSERT", "READ", "UPDATE", "SCAN", "DELETE"};

std::string PlausibleLine(Random& random, bool load) {
  const std::string key = "user" + std::to_string(random.Uniform(1000));
  const char* verb = load ? "INSERT" : kVerbs[random.Uniform(5)];
  std::string line = verb;
  line.append(" usertable ").append(key);
  if (std::string_view(verb) == "SCAN")
    line.append(" ").append(std::to_string(1 + random.Uniform(100)));
  if (std::string_view(verb) != "DELETE") {
    line.append(" [ field0=").append(std::to_string(random.NextU64())).append(" ]");
  }
  return line;
}

std::string DamagedLine(Random& random, std::string line) {
  switch (random.Uniform(12)) {
    case 0:  // random bytes
      line.resize(random.Uniform(80));
      for (char& c : line) c = static_cast<char>(random.NextU64());
      break;
    case 1:  // truncated
      line.resize(random.Uniform(line.size() + 1));
      break;
    case 2: {  // another verb
      const size_t space = line.find(' ');
      std::string verb = random.Uniform(2) == 0 ? "GET" : "insert";
      verb.append(line, space == std::string::npos ? line.size() : space);
      line = verb;
      break;
    }
    case 3:  // a scan count out of range or not a number
      line = "SCAN usertable user1 " +
             std::string(random.Uniform(2) == 0 ? "99999999999999999999999" : "-1") + " [ ]";
      break;
    case 4:  // a NUL or a carriage return inside
      line.insert(random.Uniform(line.size() + 1), 1, random.Uniform(2) == 0 ? '\0' : '\r');
      break;
    case 5:  // a very long key
      line = "READ usertable " + std::string(5000 + random.Uniform(5000), 'k');
      break;
    case 6:  // a YCSB report line
      line = "[OVERALL], RunTime(ms), " + std::to_string(random.Uniform(1000));
      break;
    case 7:  // blank, or only spaces and tabs
      line = std::string(random.Uniform(4), random.Uniform(2) == 0 ? ' ' : '\t');
      break;
    default:  // as it was: most lines of a damaged file are fine
      break;
  }
  return line;
}

class YcsbTraceTarget final : public FuzzTarget {
 public:
  explicit YcsbTraceTarget(std::filesystem::path scratch) : scratch_(std::move(scratch)) {}
  std::string_view kind() const override { return "ycsb-trace"; }

  CaseResult RunCase(Random& random, std::string& input) override {
    const bool with_load = random.Uniform(2) == 0;
    const std::string run = WriteTrace(random, "run.txt", false, input);
    const std::string load = with_load ? WriteTrace(random, "load.txt", true, input) : "";
    return Attempt([&] {
      workloads::WorkloadSpec spec;
      spec.trace = run;
      spec.trace_load = load;
      spec.trace_split = random.Uniform(2) == 0 ? workloads::TraceSplit::kRoundRobin
                                                : workloads::TraceSplit::kBlocks;
      const uint32_t clients = 1 + static_cast<uint32_t>(random.Uniform(16));
      workloads::TraceWorkload workload(spec, clients, random.NextU64());
      const auto entries = workload.BulkloadEntries();
      for (size_t i = 1; i < entries.size(); ++i) {
        if (entries[i - 1].first >= entries[i].first) {
          throw PropertyFailure{"bulkload entries not strictly increasing"};
        }
      }
      for (uint32_t client = 0; client < clients; ++client) {
        const auto stream = workload.ForClient(client);
        for (int i = 0; i < 20; ++i) {
          const workloads::Operation op = stream->Next();
          if (op.key == 0 || op.key == UINT64_MAX)
            throw PropertyFailure{"a key outside the user keys"};
          if (op.type == workloads::OpType::kRange && (op.limit < 1 || op.limit > 1000000)) {
            throw PropertyFailure{"a scan limit outside [1, 1000000]"};
          }
        }
      }
      workload.Scale();
      workload.ToJson().dump();
    });
  }

 private:
  std::string WriteTrace(Random& random, const std::string& name, bool load, std::string& input) {
    const uint64_t lines = random.Uniform(60);
    const bool damaged = random.Uniform(3) != 0;
    std::string text;
    for (uint64_t i = 0; i < lines; ++i) {
      std::string line = PlausibleLine(random, load && random.Uniform(20) != 0);
      if (damaged && random.Uniform(8) == 0) line = DamagedLine(random, line);
      text += line + (random.Uniform(30) == 0 ? "\r\n" : "\n");
    }
    if (random.Uniform(4) == 0 && !text.empty()) text.pop_back();  // no final newline
    const std::filesystem::path path = scratch_ / name;
    WriteFileWhole(path, text);
    input += "--- " + name + "\n" + text;
    return path.string();
  }

  std::filesystem::path scratch_;
};

}  // namespace

std::unique_ptr<FuzzTarget> MakeYcsbTraceTarget(const std::filesystem::path& scratch) {
  return std::make_unique<YcsbTraceTarget>(scratch);
}

}  // namespace dmbench::fuzz
