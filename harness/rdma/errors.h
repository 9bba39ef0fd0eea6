// Error types of the substrate. Every error names what went wrong and, for
// bad input, what is allowed: users meet these messages at the command line.
#pragma once

#include <stdexcept>
#include <string>

namespace dmbench {

// Bad configuration: a config file, NIC profile, topology or CLI value.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace rdma {

// A verb that cannot be executed (bad address, unsupported on this backend,
// a completion error on real hardware).
class VerbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A memory server has no chunk left to hand out.
class MemoryExhaustedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rdma
}  // namespace dmbench
