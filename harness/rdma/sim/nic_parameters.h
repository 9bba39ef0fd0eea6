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
  // A profile may leave the parameter out only when it has a default, and
  // the default is always the value that leaves its mechanism out (0, or
  // the neutral choice): a profile written before a mechanism existed keeps
  // its behaviour, and no number enters the model without a source.
  bool has_default = false;
  double default_value = 0;       // kReal, kWhole
  std::string_view default_name;  // kChoice
};

// The source recorded for a parameter a profile leaves to its default.
inline constexpr std::string_view kDefaultSource =
    "not in the profile file: the default, which leaves this mechanism out";

std::span<const NicParameter> NicParameters();

}  // namespace dmbench::rdma::sim
