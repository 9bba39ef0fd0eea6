#include "harness/util/perf_record_control.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/rdma/errors.h"

namespace dmbench {
namespace {

using ::testing::HasSubstr;

// Two FIFOs in a directory of their own, as perf record --control fifo: uses.
class PerfRecordControlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "perf-control-test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    control_ = directory_ + "/ctl";
    acknowledge_ = directory_ + "/ack";
    ASSERT_EQ(mkfifo(control_.c_str(), 0600), 0);
    ASSERT_EQ(mkfifo(acknowledge_.c_str(), 0600), 0);
  }
  void TearDown() override {
    std::remove(control_.c_str());
    std::remove(acknowledge_.c_str());
    rmdir(directory_.c_str());
  }
  std::string Fifos() const { return control_ + "," + acknowledge_; }

  // Plays perf record: reads `lines` command lines, answering each with
  // `answer`; then closes its ends.
  std::thread FakePerf(size_t lines, std::string answer, std::vector<std::string>* commands) {
    // Opened here, before the control object opens its ends, as perf opens
    // its FIFOs before it starts the workload.
    const int control = open(control_.c_str(), O_RDWR);
    const int acknowledge = open(acknowledge_.c_str(), O_RDWR);
    return std::thread([=] {
      std::string line;
      while (commands->size() < lines) {
        char byte = 0;
        if (read(control, &byte, 1) != 1) break;
        if (byte != '\n') {
          line += byte;
          continue;
        }
        commands->push_back(line);
        line.clear();
        if (write(acknowledge, answer.data(), answer.size()) < 0) break;
      }
      close(control);
      close(acknowledge);
    });
  }

  std::string directory_;
  std::string control_;
  std::string acknowledge_;
};

TEST_F(PerfRecordControlTest, SendsEachCommandAndWaitsForItsAcknowledgement) {
  std::vector<std::string> commands;
  // perf record 6.1 sends the NUL that ends its C string too.
  std::thread perf = FakePerf(2, std::string("ack\n", 5), &commands);
  {
    PerfRecordControl control(Fifos());
    control.Enable();
    control.Disable();
  }
  perf.join();
  EXPECT_EQ(commands, (std::vector<std::string>{"enable", "disable"}));
}

TEST_F(PerfRecordControlTest, AnAnswerOtherThanAckIsAnError) {
  std::vector<std::string> commands;
  std::thread perf = FakePerf(1, "nak\n", &commands);
  PerfRecordControl control(Fifos());
  try {
    control.Enable();
    ADD_FAILURE() << "a wrong answer was taken as an acknowledgement";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("did not acknowledge 'enable'"));
    EXPECT_THAT(error.what(), HasSubstr("'nak'"));
  }
  perf.join();
}

TEST_F(PerfRecordControlTest, APerfThatWentAwayIsAnErrorNotAHang) {
  std::vector<std::string> commands;
  // Answers the first command, then closes both FIFOs.
  std::thread perf = FakePerf(1, "ack\n", &commands);
  PerfRecordControl control(Fifos());
  control.Enable();
  perf.join();
  EXPECT_THROW(control.Disable(), std::runtime_error);
}

TEST_F(PerfRecordControlTest, AFifoNobodyReadsIsRefusedAtOnce) {
  try {
    PerfRecordControl control(Fifos());
    ADD_FAILURE() << "opened a control FIFO that no perf record reads";
  } catch (const ConfigError& error) {
    EXPECT_THAT(error.what(), HasSubstr("no process reads it"));
    EXPECT_THAT(error.what(), HasSubstr(control_));
  }
}

TEST_F(PerfRecordControlTest, RefusesWhatIsNotTwoFifos) {
  EXPECT_THROW(PerfRecordControl{control_}, ConfigError);
  EXPECT_THROW(PerfRecordControl{Fifos() + "," + control_}, ConfigError);
  EXPECT_THROW(PerfRecordControl{"," + acknowledge_}, ConfigError);
  const std::string plain = directory_ + "/plain";
  std::ofstream(plain) << "not a FIFO\n";
  try {
    PerfRecordControl control(plain + "," + acknowledge_);
    ADD_FAILURE() << "took a regular file for a FIFO";
  } catch (const ConfigError& error) {
    EXPECT_THAT(error.what(), HasSubstr("is not a FIFO"));
  }
  std::remove(plain.c_str());
  EXPECT_THROW(PerfRecordControl{directory_ + "/missing," + acknowledge_}, ConfigError);
}

}  // namespace
}  // namespace dmbench
