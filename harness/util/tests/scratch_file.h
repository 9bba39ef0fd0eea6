// Files a test writes for the code under test to read.
//
// CTest runs every test in its own process, several at once, and all of them
// share one temporary directory. A fixed file name there lets one test read
// another's half-written file: in CI two trace tests rewrote the same trace
// and one read a line cut in half. A scratch path therefore names the running
// test and the process, so no two tests running at once ever share a file.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <string>

namespace dmbench {

// A path in the temporary directory that only the running test uses; the
// file is not created. Call it from inside a test (it reads the test's name).
inline std::string ScratchPath(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string owner = test == nullptr ? std::string("no-test")
                                      : std::string(test->test_suite_name()) + "." + test->name();
  for (char& c : owner) {
    if (c == '/') c = '_';  // parameterized tests have '/' in their names
  }
  std::string directory = ::testing::TempDir();
  if (!directory.empty() && directory.back() != '/') directory += '/';
  return directory + "dmbench-" + owner + "-" + std::to_string(::getpid()) + "-" + name;
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
