// One fuzz case and how it ended. An input the tool reads may be accepted
// or refused with a clear error; anything else is a finding: an exception
// bad input is not allowed to throw (a library's, with its internal
// message), a message that does not say what is wrong, a property of an
// accepted input that does not hold, and for the command line a signal, an
// undocumented exit status or a hang.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "harness/util/random.h"

namespace dmbench::fuzz {

enum class Verdict { kAccepted, kRefused, kFinding };

struct CaseResult {
  Verdict verdict = Verdict::kAccepted;
  std::string detail;  // the refusal or the finding
};

// Whether `message` reads as a clear error for a user: non-empty, of a
// readable length, and free of the internals of the libraries underneath
// ("[json.exception...", "basic_string", "std::bad_alloc", ...). Returns
// what is wrong with it, or "" when it is clear.
std::string UnclearMessage(std::string_view message);

// Runs `attempt`, which reads a fuzzed input (and may check properties of
// what it accepted by throwing PropertyFailure): accepted if it returns,
// refused on a ConfigError or rdma::VerbError with a clear message, a
// finding otherwise.
CaseResult Attempt(const std::function<void()>& attempt);

// Thrown by an attempt when an accepted input breaks a property.
struct PropertyFailure {
  std::string what;
};

// An input kind the fuzzer covers: each case draws an input from its own
// generator (so a case is replayed from the campaign seed and its number)
// and reads it in-process.
class FuzzTarget {
 public:
  virtual ~FuzzTarget() = default;
  virtual std::string_view kind() const = 0;
  // One case; `input` receives the input as text (or bytes), for the
  // finding's reproducer.
  virtual CaseResult RunCase(Random& random, std::string& input) = 0;
};

}  // namespace dmbench::fuzz
