// YCSB trace input: every line kind of YCSB's basic database output, keys by
// their documented hash, bad lines refused with the file, line number and
// what is allowed, the operations dealt to clients as documented, and a
// trace's config refusing generation fields it would ignore.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/util/tests/scratch_file.h"
#include "workloads/key_space.h"
#include "workloads/tests/spec_reading.h"
#include "workloads/trace_workload.h"
#include "workloads/ycsb_trace.h"

namespace dmbench::workloads {
namespace {

using test_support::SpecErrorOf;

std::string ErrorOf(const std::string& text, bool inserts_only = false) {
  const std::string path = WriteScratchFile("bad.txt", text);
  try {
    ReadYcsbTrace(path, "workload.trace", inserts_only);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

WorkloadSpec TraceSpec(const std::string& run, const std::string& load, TraceSplit split) {
  WorkloadSpec spec;
  spec.trace = run;
  spec.trace_load = load;
  spec.trace_split = split;
  return spec;
}

TEST(YcsbTrace, ReadsEveryLineKindOfTheBasicDatabase) {
  const std::string path = WriteScratchFile("run.txt",
                                            "[OVERALL], RunTime(ms), 12\n"
                                            "INSERT usertable user1 [ field0=a b c field1=xyz ]\n"
                                            "\n"
                                            "READ usertable user2 [ <all fields>]\r\n"
                                            "UPDATE usertable user3 [ field4=q ]\n"
                                            "SCAN usertable user4 17 [ <all fields>]\n"
                                            "DELETE usertable user5\n"
                                            "[READ], Operations, 1\n");
  const YcsbTrace trace = ReadYcsbTrace(path, "workload.trace", false);
  EXPECT_EQ(trace.lines, 8u);
  ASSERT_EQ(trace.operations.size(), 5u);
  const OpType types[] = {OpType::kInsert, OpType::kLookup, OpType::kUpdate, OpType::kRange,
                          OpType::kDelete};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(trace.operations[i].type, types[i]) << i;
    EXPECT_EQ(trace.operations[i].key, YcsbKey("user" + std::to_string(i + 1))) << i;
  }
  EXPECT_EQ(trace.operations[3].scan_records, 17u);
  EXPECT_EQ(trace.operations[0].scan_records, 0u);
}

TEST(YcsbTrace, KeysAreTheDocumentedHashInTheUserKeyRange) {
  std::set<uint64_t> keys;
  for (int i = 0; i < 10000; ++i) {
    const uint64_t key = YcsbKey("user" + std::to_string(i));
    EXPECT_GE(key, 1u);
    EXPECT_LE(key, UINT64_MAX - 1);
    keys.insert(key);
  }
  EXPECT_EQ(keys.size(), 10000u);
  EXPECT_EQ(YcsbKey("user1"), YcsbKey(std::string("user1")));
  EXPECT_NE(YcsbKey("user1"), YcsbKey("user10"));
}

TEST(YcsbTrace, BadLinesNameTheFileLineAndWhatIsAllowed) {
  const std::string path = ScratchPath("bad.txt");
  std::string message = ErrorOf("READ usertable user1\nGET usertable user2\n");
  EXPECT_NE(message.find(path + ":2: unknown line 'GET usertable user2'"), std::string::npos)
      << message;
  EXPECT_NE(message.find("SCAN <table> <key> <records>"), std::string::npos) << message;
  message = ErrorOf("READ usertable\n");
  EXPECT_NE(message.find(path + ":1: no key in 'READ usertable'"), std::string::npos) << message;
  for (const char* count : {"0", "x", "12x", "-3", "1000001", ""}) {
    message = ErrorOf(std::string("SCAN usertable user1 ") + count + " [ <all fields>]\n");
    EXPECT_NE(message.find(path + ":1: SCAN needs a record count in [1, 1000000]"),
              std::string::npos)
        << count << ": " << message;
  }
  message = ErrorOf("INSERT usertable user1 [ f=1 ]\nREAD usertable user1\n", true);
  EXPECT_NE(message.find(path + ":2: READ in a load trace (workload.trace)"), std::string::npos)
      << message;
  message = ErrorOf("[OVERALL], RunTime(ms), 1\n\n");
  EXPECT_NE(message.find("holds no operation (2 lines)"), std::string::npos) << message;
  try {
    ReadYcsbTrace(ScratchPath("no-such-trace.txt"), "workload.trace_load", true);
    ADD_FAILURE() << "a missing file was read";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("workload.trace_load: cannot read"), std::string::npos)
        << error.what();
  }
}

TEST(TraceWorkload, DealsOperationsRoundRobinOrInBlocksAndCountsPasses) {
  std::string text;
  for (int i = 0; i < 10; ++i) text += "READ usertable user" + std::to_string(i) + "\n";
  const std::string path = WriteScratchFile("ten.txt", text);
  for (TraceSplit split : {TraceSplit::kRoundRobin, TraceSplit::kBlocks}) {
    TraceWorkload workload(TraceSpec(path, "", split), 3, 1);
    // Client 1: operations 1, 4, 7 round-robin; 3, 4, 5 in blocks ([10/3, 20/3)).
    const std::vector<int> expected =
        split == TraceSplit::kRoundRobin ? std::vector<int>{1, 4, 7} : std::vector<int>{3, 4, 5};
    const auto stream = workload.ForClient(1);
    std::set<uint64_t> values;
    for (int pass = 0; pass < 2; ++pass) {
      for (int i : expected) {
        const Operation op = stream->Next();
        EXPECT_EQ(op.key, YcsbKey("user" + std::to_string(i)));
        EXPECT_EQ(op.type, OpType::kLookup);
        values.insert(op.value);
      }
    }
    EXPECT_EQ(values.size(), 6u) << "every operation has its own value";
    EXPECT_GT(*values.begin(), KeySpace::kMaxBulkloadValue);
    stream->Next();
    EXPECT_EQ(workload.ToJson()["max_passes"], 3);
    EXPECT_EQ(workload.ToJson()["run"]["by_op"]["lookup"], 10);
  }
}

TEST(TraceWorkload, OperationsUnreadAreNotCountedAndComeAgain) {
  std::string text;
  for (int i = 0; i < 6; ++i) text += "READ usertable user" + std::to_string(i) + "\n";
  const std::string path = WriteScratchFile("six.txt", text);
  // Two clients in blocks: client 0 replays operations 0, 1, 2.
  TraceWorkload workload(TraceSpec(path, "", TraceSplit::kBlocks), 2, 1);
  const auto stream = workload.ForClient(0);
  std::vector<Operation> drawn;
  for (int i = 0; i < 5; ++i) drawn.push_back(stream->Next());  // passes 1 and 2
  EXPECT_EQ(workload.ToJson()["max_passes"], 2);
  // The last two (operations 0 and 1 of pass 2) never ran: pass 2 did not start.
  stream->Unread(2);
  EXPECT_EQ(workload.ToJson()["max_passes"], 1);
  for (int i = 3; i < 5; ++i) {
    const Operation again = stream->Next();
    EXPECT_EQ(again.key, drawn[static_cast<size_t>(i)].key);
    EXPECT_EQ(again.value, drawn[static_cast<size_t>(i)].value) << "the same unique value";
  }
  EXPECT_EQ(workload.ToJson()["max_passes"], 2);
  // Taken back to before the first operation: no pass at all.
  stream->Unread(5);
  EXPECT_EQ(workload.ToJson()["max_passes"], 0);
  EXPECT_EQ(stream->Next().key, drawn[0].key);
}

TEST(TraceWorkload, BulkloadsTheLoadTracesKeysSortedAndOnce) {
  const std::string load =
      WriteScratchFile("load.txt",
                       "INSERT usertable user9 [ a=1 ]\nINSERT usertable user3 [ a=1 ]\n"
                       "INSERT usertable user9 [ a=2 ]\n");
  const std::string run = WriteScratchFile("scan.txt", "SCAN usertable user3 5 [ <all fields>]\n");
  TraceWorkload workload(TraceSpec(run, load, TraceSplit::kRoundRobin), 1, 4);
  const auto entries = workload.BulkloadEntries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_LT(entries[0].first, entries[1].first);
  for (const auto& [key, value] : entries) EXPECT_EQ(value, KeySpace::BulkloadValue(4, key));
  const Operation scan = workload.ForClient(0)->Next();
  EXPECT_EQ(scan.type, OpType::kRange);
  EXPECT_EQ(scan.limit, 5u);
  EXPECT_EQ(scan.range_end, OperationStream::kNoRangeEnd);
  const WorkloadScale scale = workload.Scale();
  EXPECT_EQ(scale.keys, 2u);
  EXPECT_EQ(scale.hottest_key_share, 1.0);
}

TEST(TraceWorkload, TooFewOperationsForTheClientsIsAConfigError) {
  const std::string path = WriteScratchFile("two.txt", "READ t user1\nREAD t user2\n");
  try {
    TraceWorkload(TraceSpec(path, "", TraceSplit::kRoundRobin), 3, 1);
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("holds 2 operations for 3 clients"), std::string::npos)
        << error.what();
  }
}

TEST(TraceWorkload, ATraceRefusesTheFieldsItWouldIgnore) {
  EXPECT_EQ(
      SpecErrorOf({{"trace", "run.txt"}, {"trace_load", "load.txt"}, {"trace_split", "blocks"}}),
      "no error");
  std::string message = SpecErrorOf({{"trace", "run.txt"}, {"mix", "ycsb-a"}});
  EXPECT_NE(message.find("workload.mix: is not used with workload.trace"), std::string::npos)
      << message;
  message = SpecErrorOf({{"trace", "run.txt"}, {"keys", 5000}});
  EXPECT_NE(message.find("workload.keys: is not used with workload.trace"), std::string::npos)
      << message;
  message = SpecErrorOf({{"trace_load", "load.txt"}});
  EXPECT_NE(message.find("workload.trace_load: needs workload.trace"), std::string::npos)
      << message;
  message = SpecErrorOf({{"trace_split", "blocks"}});
  EXPECT_NE(message.find("workload.trace_split: applies to workload.trace only"), std::string::npos)
      << message;
  message = SpecErrorOf({{"trace", "run.txt"}, {"trace_split", "random"}});
  EXPECT_NE(message.find("round-robin, blocks"), std::string::npos) << message;
}

}  // namespace
}  // namespace dmbench::workloads
