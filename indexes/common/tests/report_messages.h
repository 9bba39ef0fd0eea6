// A consistency report's examples, one per line, for a failed expectation's
// message.
#pragma once

#include <string>

#include "indexes/common/consistency_checker.h"

namespace dmbench::indexes::test_support {

inline std::string AllMessages(const ConsistencyReport& report) {
  std::string text;
  for (const ConsistencyViolation& v : report.examples) text += v.message + "\n";
  return text;
}

}  // namespace dmbench::indexes::test_support
