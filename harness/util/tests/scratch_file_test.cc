#include "harness/util/tests/scratch_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace dmbench {
namespace {

namespace fs = std::filesystem;

// The cleaner is called here by hand, as gtest calls it when this test ends:
// the files must go, and another test's must stay.
TEST(ScratchPath, APassedTestsFilesAreRemovedAndOthersKept) {
  const fs::path file = WriteScratchFile("note.txt", "x");
  const fs::path directory = ScratchPath("tree");
  fs::create_directories(directory / "inner");
  std::ofstream(directory / "inner" / "result.json") << "{}";
  const fs::path beside = file.string() + ".partial";
  std::ofstream(beside) << "y";
  // The same name in another test of this process, and in a test whose
  // name this one's starts with.
  const fs::path other =
      file.parent_path() / ("dmbench-Other.Test-" + std::to_string(::getpid()) + "-note.txt");
  const fs::path longer =
      file.parent_path() / ("dmbench-ScratchPath.APassedTestsFilesAreRemovedAndOthersKeptToo-" +
                            std::to_string(::getpid()) + "-note.txt");
  std::ofstream(other) << "z";
  std::ofstream(longer) << "z";

  scratch_internal::RemoveWhenPassed cleaner;
  cleaner.OnTestEnd(*::testing::UnitTest::GetInstance()->current_test_info());

  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(directory));
  EXPECT_FALSE(fs::exists(beside));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_TRUE(fs::exists(longer));
  fs::remove(other);
  fs::remove(longer);
}

}  // namespace
}  // namespace dmbench
