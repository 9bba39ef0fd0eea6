// Files a test writes for the code under test to read.
//
// CTest runs every test in its own process, several at once, and all of them
// share one temporary directory. A fixed file name there lets one test read
// another's half-written file: in CI two trace tests rewrote the same trace
// and one read a line cut in half. A scratch path therefore names the running
// test and the process, so no two tests running at once ever share a file.
//
// A test that passes leaves nothing behind: when it ends, everything in the
// temporary directory under its prefix is removed, the files its code under
// test wrote beside a scratch path (a result's ".partial", a run's
// ".history") included. A test that fails keeps them, to be looked at.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace dmbench {

namespace scratch_internal {

// "Suite.Name", with the '/' of a parameterized test's name made a '_'.
inline std::string OwnerName(const ::testing::TestInfo* test) {
  std::string owner = test == nullptr ? std::string("no-test")
                                      : std::string(test->test_suite_name()) + "." + test->name();
  for (char& c : owner) {
    if (c == '/') c = '_';
  }
  return owner;
}

inline std::string TemporaryDirectory() {
  std::string directory = ::testing::TempDir();
  if (!directory.empty() && directory.back() != '/') directory += '/';
  return directory;
}

// What every scratch path of `test` in this process starts with. A test's
// name has no '-', so no other test's prefix starts with this one.
inline std::string Prefix(const ::testing::TestInfo* test) {
  return "dmbench-" + OwnerName(test) + "-" + std::to_string(::getpid()) + "-";
}

class RemoveWhenPassed final : public ::testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const ::testing::TestInfo& test) override {
    if (test.result() == nullptr || test.result()->Failed()) return;
    const std::string prefix = Prefix(&test);
    std::error_code error;
    std::filesystem::directory_iterator entries(TemporaryDirectory(), error);
    if (error) return;
    for (const std::filesystem::directory_entry& entry : entries) {
      if (entry.path().filename().string().starts_with(prefix)) {
        std::filesystem::remove_all(entry.path(), error);
      }
    }
  }
};

// Hands gtest (which owns and deletes it) one RemoveWhenPassed per test
// program, on the first scratch path asked for: a program that makes none
// has nothing to clean. gtest forwards every later test's end to it.
inline void InstallCleanerOnce() {
  static const bool installed = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new RemoveWhenPassed);
    return true;
  }();
  (void)installed;
}

}  // namespace scratch_internal

// A path in the temporary directory that only the running test uses; the
// file is not created. Call it from inside a test (it reads the test's name).
inline std::string ScratchPath(const std::string& name) {
  scratch_internal::InstallCleanerOnce();
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return scratch_internal::TemporaryDirectory() + scratch_internal::Prefix(test) + name;
}

// Writes `text` byte for byte to ScratchPath(name); that path.
inline std::string WriteScratchFile(const std::string& name, const std::string& text) {
  const std::string path = ScratchPath(name);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) throw std::runtime_error("cannot write the test's scratch file " + path);
  return path;
}

}  // namespace dmbench
