// A gtest assertion for error messages: EXPECT_TRUE(Mentions(message, part))
// prints the whole message when the part is missing, which a bare find()
// comparison does not.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace dmbench {

inline ::testing::AssertionResult Mentions(const std::string& message, const std::string& part) {
  if (message.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "\"" << message << "\" does not mention \"" << part << "\"";
}

}  // namespace dmbench
