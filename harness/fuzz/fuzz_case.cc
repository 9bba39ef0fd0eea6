#include "harness/fuzz/fuzz_case.h"

#include <array>
#include <exception>
#include <new>
#include <typeinfo>

#include "harness/rdma/errors.h"

namespace dmbench::fuzz {

namespace {

// Internals that mean a library's exception reached the user unexplained.
constexpr std::array<std::string_view, 10> kInternals = {
    "[json.exception", "basic_string", "std::", "vector::",  "_M_",
    "stoul",           "stod",         "stoi",  "bad_alloc", "bad_optional_access"};
// A message longer than this quotes too much of the input to be read.
constexpr size_t kMaxMessageBytes = 2000;

}  // namespace

std::string UnclearMessage(std::string_view message) {
  if (message.empty()) return "an empty message";
  if (message.size() > kMaxMessageBytes) {
    return "a message of " + std::to_string(message.size()) + " bytes";
  }
  for (std::string_view internal : kInternals) {
    if (message.find(internal) != std::string_view::npos) {
      return "a library's internals (" + std::string(internal) + ") in the message";
    }
  }
  return "";
}

CaseResult Attempt(const std::function<void()>& attempt) {
  auto refused = [](const std::exception& error) {
    const std::string unclear = UnclearMessage(error.what());
    if (unclear.empty()) return CaseResult{Verdict::kRefused, error.what()};
    return CaseResult{Verdict::kFinding, "unclear refusal, " + unclear + ": " + error.what()};
  };
  try {
    attempt();
    return {Verdict::kAccepted, ""};
  } catch (const ConfigError& error) {
    return refused(error);
  } catch (const rdma::VerbError& error) {
    return refused(error);
  } catch (const PropertyFailure& failure) {
    return {Verdict::kFinding, "accepted, but " + failure.what};
  } catch (const std::exception& error) {
    return {Verdict::kFinding,
            std::string("uncaught ") + typeid(error).name() + ": " + error.what()};
  } catch (...) {
    return {Verdict::kFinding, "an exception of an unknown type"};
  }
}

}  // namespace dmbench::fuzz
