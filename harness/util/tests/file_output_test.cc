#include "harness/util/file_output.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <stdexcept>
#include <string>

#include "harness/util/tests/scratch_file.h"

namespace dmbench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string ReadAll(const fs::path& file) {
  std::ifstream stream(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

// The message of what `write` throws, or "" if it throws nothing.
template <typename Write>
std::string FailureOf(Write&& write) {
  try {
    write();
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

// Makes every write past `bytes` of a file fail with EFBIG ("File too
// large"), as a full disk fails with ENOSPC, while it lives: the limit and
// SIGXFSZ, which would otherwise end the process, are restored after.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &previous_);
    rlimit limit = previous_;
    limit.rlim_cur = bytes;
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) throw std::runtime_error("setrlimit failed");
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit previous_{};
  void (*previous_handler_)(int) = nullptr;
};

TEST(WriteFileWhole, WritesTheBytesAndCreatesMissingDirectories) {
  const fs::path root = ScratchPath("tree");
  const fs::path file = root / "a" / "b" / "result.json";
  WriteFileWhole(file, [](std::ostream& stream) { stream << "{\"x\": 1}\n"; });
  EXPECT_EQ(ReadAll(file), "{\"x\": 1}\n");
  EXPECT_FALSE(fs::exists(root / "a" / "b" / "result.json.partial"));
  // Larger than the buffer, so that it is written in several pieces.
  const std::string large(300'000, 'z');
  WriteFileWhole(file, large);
  EXPECT_EQ(ReadAll(file), large);
  fs::remove_all(root);
}

// The last buffer reaches the file only as the stream closes: a failure
// there must be reported, and must leave the file as it was.
TEST(WriteFileWhole, AFailedFinalFlushThrowsAndKeepsTheOldFile) {
  const fs::path file = ScratchPath("kept.json");
  WriteFileWhole(file, std::string_view("old content\n"));
  std::string failure;
  {
    const FileSizeLimit limit(1024);
    failure = FailureOf([&] { WriteFileWhole(file, std::string(5000, 'n')); });
  }
  EXPECT_THAT(failure, HasSubstr("cannot write " + file.string() + ": File too large"));
  EXPECT_EQ(ReadAll(file), "old content\n");
  EXPECT_FALSE(fs::exists(file.string() + ".partial"));
  fs::remove(file);
}

TEST(WriteFileWhole, AFailureMidwayThrowsAndLeavesNoFile) {
  const fs::path file = ScratchPath("never.json");
  std::string failure;
  {
    const FileSizeLimit limit(100'000);
    failure = FailureOf([&] { WriteFileWhole(file, std::string(1'000'000, 'n')); });
  }
  EXPECT_THAT(failure, HasSubstr("File too large"));
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file.string() + ".partial"));
}

TEST(WriteFileWhole, AWriterThatThrowsRenamesNothingIntoPlace) {
  const fs::path file = ScratchPath("thrown.json");
  EXPECT_THROW(WriteFileWhole(file,
                              [](std::ostream& stream) {
                                stream << "half";
                                throw std::logic_error("the writer gave up");
                              }),
               std::logic_error);
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file.string() + ".partial"));
}

// A pipe is written in place (renaming over it would replace it, and its
// reader would wait for ever).
TEST(WriteFileWhole, APipeIsWrittenInPlaceAndStaysAPipe) {
  const fs::path pipe = ScratchPath("pipe");
  ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
  std::future<std::string> read = std::async(std::launch::async, [&] { return ReadAll(pipe); });
  WriteFileWhole(pipe, std::string_view("through the pipe\n"));
  EXPECT_EQ(read.get(), "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(pipe));
  EXPECT_FALSE(fs::exists(pipe.string() + ".partial"));
  fs::remove(pipe);
}

TEST(WriteFileWhole, ALinkIsFollowedAndStays) {
  const fs::path target = ScratchPath("target.json");
  const fs::path link = ScratchPath("link.json");
  WriteFileWhole(target, std::string_view("old\n"));
  fs::create_symlink(target, link);
  WriteFileWhole(link, std::string_view("new\n"));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(ReadAll(target), "new\n");
  fs::remove(link);
  fs::remove(target);
}

TEST(WriteFileWhole, ADirectoryIsRefusedByName) {
  const fs::path directory = ScratchPath("directory");
  fs::create_directories(directory);
  EXPECT_THAT(FailureOf([&] { WriteFileWhole(directory, std::string_view("x")); }),
              HasSubstr("cannot write " + directory.string() + ": it is a directory"));
  fs::remove_all(directory);
}

TEST(WriteFileWhole, AnUncreatableFileNamesTheReason) {
  const fs::path blocker = ScratchPath("blocker");
  WriteFileWhole(blocker, std::string_view("a file, not a directory"));
  // Its parent is a regular file, so neither it nor the directory can exist.
  const fs::path file = blocker / "result.json";
  EXPECT_THAT(FailureOf([&] { WriteFileWhole(file, std::string_view("x")); }),
              HasSubstr("cannot write " + file.string() + ": cannot create its directory"));
  fs::remove(blocker);
}

TEST(WriteFileWhole, AnEmptyNameIsRefused) {
  EXPECT_THAT(FailureOf([] { WriteFileWhole("", std::string_view("x")); }),
              HasSubstr("no file name given"));
  EXPECT_THAT(FailureOf([] { CheckFileWritable(""); }), HasSubstr("no file name given"));
}

// What a command checks before a long run: the reasons known in advance,
// and nothing written but the missing directories.
TEST(CheckFileWritable, RefusesWhatWriteFileWholeWouldAndWritesNoFile) {
  const fs::path root = ScratchPath("check");
  const fs::path file = root / "new" / "result.json";
  CheckFileWritable(file);
  EXPECT_TRUE(fs::is_directory(root / "new"));
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file.string() + ".partial"));
  CheckFileWritable("/dev/null");

  EXPECT_THAT(FailureOf([&] { CheckFileWritable(root); }), HasSubstr("it is a directory"));
  const fs::path blocker = root / "blocker";
  WriteFileWhole(blocker, std::string_view("a file, not a directory"));
  EXPECT_THAT(FailureOf([&] { CheckFileWritable(blocker / "result.json"); }),
              HasSubstr("cannot create its directory"));
  fs::remove_all(root);
}

TEST(WrittenInPlace, IsTrueForADeviceOrAPipeOnly) {
  const fs::path root = ScratchPath("in-place");
  fs::create_directories(root);
  const fs::path file = root / "file";
  WriteFileWhole(file, std::string_view("x"));
  const fs::path pipe = root / "pipe";
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0666), 0);
  const fs::path link = root / "link";
  fs::create_symlink("/dev/null", link);
  EXPECT_TRUE(WrittenInPlace("/dev/null"));
  EXPECT_TRUE(WrittenInPlace(pipe));
  EXPECT_TRUE(WrittenInPlace(link));
  EXPECT_FALSE(WrittenInPlace(file));
  EXPECT_FALSE(WrittenInPlace(root));
  EXPECT_FALSE(WrittenInPlace(root / "missing"));
  fs::remove_all(root);
}

// Standard output is pointed at a scratch file for the test, and back.
TEST(NamesStandardOutput, IsTrueOnlyForTheFileStandardOutputWritesTo) {
  const fs::path root = ScratchPath("stdout");
  fs::create_directories(root);
  const fs::path redirected = root / "redirected";
  const fs::path other = root / "other";
  WriteFileWhole(other, std::string_view("x"));
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  ASSERT_GE(saved, 0);
  const int descriptor = ::open(redirected.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  ASSERT_GE(descriptor, 0);
  ASSERT_GE(::dup2(descriptor, STDOUT_FILENO), 0);
  const bool names_redirected = NamesStandardOutput(redirected);
  const bool names_device = NamesStandardOutput("/dev/stdout");
  const bool names_other = NamesStandardOutput(other);
  const bool names_missing = NamesStandardOutput(root / "missing");
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  ::close(descriptor);
  EXPECT_TRUE(names_redirected);
  EXPECT_TRUE(names_device);
  EXPECT_FALSE(names_other);
  EXPECT_FALSE(names_missing);
  EXPECT_FALSE(NamesStandardOutput(redirected));
  fs::remove_all(root);
}

}  // namespace
}  // namespace dmbench
