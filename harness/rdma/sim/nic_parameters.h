// The one list of NIC-profile parameters. Everything that reads, writes or
// documents a profile walks this list, so a parameter added here is loaded
// from profile files, accepted as an override, echoed into results and
// written into the calibration document without further code.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "harness/rdma/sim/nic_profile.h"

namespace dmbench::rdma::sim {

struct NicParameter {
  enum class Kind { kReal, kWhole, kChoice };

  std::string_view key;
  std::string_view group;    // the part of the model it belongs to
  std::string_view meaning;  // what it is, with its unit, and its "off" value if any
  Kind kind;
  double min = 0;  // kReal, kWhole: the allowed range
  double max = 0;
  bool power_of_two = false;                // kWhole
  double NicProfile::*real = nullptr;       // kReal
  uint64_t NicProfile::*whole = nullptr;    // kWhole
  std::span<const std::string_view> names;  // kChoice: the allowed values
  std::string_view (*get)(const NicProfile&) = nullptr;
  void (*set)(NicProfile&, std::string_view) = nullptr;
};

std::span<const NicParameter> NicParameters();

}  // namespace dmbench::rdma::sim
