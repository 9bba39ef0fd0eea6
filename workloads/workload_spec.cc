#include "workloads/workload_spec.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <sstream>

#include "harness/rdma/errors.h"
#include "harness/util/config_fields.h"

namespace dmbench::workloads {
namespace {

constexpr const char* kCustom = "custom";
constexpr const char* kRangeWrite = "range-write";
constexpr const char* kYcsbD = "ycsb-d";

struct MixDefinition {
  const char* name;
  double insert, update, lookup, remove, range;
};

// Sherman §5.1.3 / Table 3, then YCSB's core workloads. YCSB's "read" is a lookup; its "update"
// of an existing key is kUpdate; D's inserts create new keys and E's are the paper's inserts.
constexpr std::array<MixDefinition, 10> kMixes = {{
    {"write-only", 1.0, 0.0, 0.0, 0.0, 0.0},
    {"write-intensive", 0.5, 0.0, 0.5, 0.0, 0.0},
    {"read-intensive", 0.05, 0.0, 0.95, 0.0, 0.0},
    {"range-only", 0.0, 0.0, 0.0, 0.0, 1.0},
    {"range-write", 0.5, 0.0, 0.0, 0.0, 0.5},
    {"ycsb-a", 0.0, 0.5, 0.5, 0.0, 0.0},
    {"ycsb-b", 0.0, 0.05, 0.95, 0.0, 0.0},
    {"ycsb-c", 0.0, 0.0, 1.0, 0.0, 0.0},
    {"ycsb-d", 0.05, 0.0, 0.95, 0.0, 0.0},
    {"ycsb-e", 0.05, 0.0, 0.0, 0.0, 0.95},
}};

const MixDefinition* FindMix(const std::string& name) {
  for (const MixDefinition& mix : kMixes) {
    if (name == mix.name) return &mix;
  }
  return nullptr;
}

struct FractionField {
  const char* key;
  double WorkloadSpec::*spec_member;
  double MixDefinition::*mix_member;
};

constexpr std::array<FractionField, 5> kFractions = {{
    {"insert", &WorkloadSpec::insert, &MixDefinition::insert},
    {"update", &WorkloadSpec::update, &MixDefinition::update},
    {"lookup", &WorkloadSpec::lookup, &MixDefinition::lookup},
    {"delete", &WorkloadSpec::remove, &MixDefinition::remove},
    {"range", &WorkloadSpec::range, &MixDefinition::range},
}};

std::string Text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

std::string MixList() { return CommaJoined(WorkloadSpec::MixNames()); }

// Maps a field name to the path users see; ReadJson takes it from its reader, so errors match
// wherever the workload object sits in the config.
using PathOf = std::function<std::string(const std::string&)>;

[[noreturn]] void Fail(const PathOf& path, const std::string& key, const std::string& what) {
  throw ConfigError(path(key) + ": " + what);
}

// Only a zipfian distribution has popularity ranks to draw over a larger population: uniform
// keys have none, and latest draws Zipfian distances back from the newest key, where distances
// beyond the key space would reach before the oldest key rather than fold onto popular ones.
void ValidatePopulation(const WorkloadSpec& spec, const PathOf& path) {
  if (spec.distribution != KeyDistribution::kZipfian) {
    Fail(path, "zipf_population",
         std::string("applies to distribution zipfian only (0 leaves it off), got ") +
             std::to_string(spec.zipf_population) + " with distribution " +
             KeyDistributionName(spec.distribution) +
             (spec.distribution == KeyDistribution::kLatest
                  ? " (latest draws distances back from the newest key, which cannot exceed "
                    "the key space)"
                  : " (uniform keys have no popularity ranks)"));
  }
  if (spec.zipf_population < spec.keys || spec.zipf_population > WorkloadSpec::kMaxZipfPopulation) {
    Fail(path, "zipf_population",
         "must be 0 (the key count) or an integer in [keys = " + std::to_string(spec.keys) + ", " +
             std::to_string(WorkloadSpec::kMaxZipfPopulation) + "], got " +
             std::to_string(spec.zipf_population));
  }
}

// A trace decides the operations and the keys; a generation field set beside it would be
// silently ignored, so it is refused by name.
void ValidateTrace(const WorkloadSpec& spec, const PathOf& path) {
  if (spec.trace.empty()) {
    if (!spec.trace_load.empty()) {
      Fail(path, "trace_load", "needs " + path("trace") + " (the run trace to replay after it)");
    }
    if (spec.trace_split != TraceSplit::kRoundRobin) {
      Fail(path, "trace_split", "applies to " + path("trace") + " only, which is not set");
    }
    return;
  }
  WorkloadSpec generated;
  generated.trace = spec.trace;
  generated.trace_load = spec.trace_load;
  generated.trace_split = spec.trace_split;
  const nlohmann::json defaults = generated.ToJson();
  const nlohmann::json given = spec.ToJson();
  // The mix first: it also sets the fractions, which would otherwise be named instead.
  std::vector<std::string> keys = {"mix"};
  for (const auto& [key, value] : given.items()) keys.push_back(key);
  for (const std::string& key : keys) {
    const nlohmann::json& value = given[key];
    if (value != defaults[key]) {
      Fail(path, key,
           "is not used with " + path("trace") +
               " (the trace decides the operations and keys): "
               "leave it out, got " +
               value.dump() + " where its default is " + defaults[key].dump());
    }
  }
}

void ValidateSpec(const WorkloadSpec& spec, const PathOf& path) {
  const bool custom = spec.mix == kCustom;
  const MixDefinition* mix = FindMix(spec.mix);
  if (mix == nullptr && !custom) {
    Fail(path, "mix", "must be one of {" + MixList() + "}, got \"" + spec.mix + "\"");
  }
  double sum = 0.0;
  for (const FractionField& field : kFractions) {
    const double value = spec.*field.spec_member;
    if (!(value >= 0.0 && value <= 1.0)) {
      Fail(path, field.key, "must be a number in [0, 1], got " + Text(value));
    }
    if (!custom && std::abs(value - mix->*field.mix_member) > WorkloadSpec::kSumTolerance) {
      Fail(path, field.key,
           "is fixed to " + Text(mix->*field.mix_member) + " by mix " + spec.mix + ", got " +
               Text(value) + "; set mix to custom to choose the fractions");
    }
    sum += value;
  }
  if (std::abs(sum - 1.0) > WorkloadSpec::kSumTolerance) {
    std::string fields;
    for (const FractionField& field : kFractions) {
      fields += (fields.empty() ? "" : " + ") + path(field.key);
    }
    throw ConfigError(fields + " must sum to 1 for mix custom, got " + Text(sum));
  }
  if (spec.split_clients != (spec.mix == kRangeWrite)) {
    Fail(path, "split_clients",
         "is set by the mix (true only for range-write), got " +
             std::string(spec.split_clients ? "true" : "false") + " for mix " + spec.mix);
  }
  if (spec.mix == kYcsbD && spec.distribution != KeyDistribution::kLatest) {
    Fail(path, "distribution",
         std::string("must be latest for mix ycsb-d, got ") +
             KeyDistributionName(spec.distribution));
  }
  if (spec.mix != kYcsbD && spec.distribution == KeyDistribution::kLatest) {
    Fail(path, "distribution",
         "latest is only allowed with mix ycsb-d (only its inserts create new keys), got mix " +
             spec.mix + "; use zipfian or uniform");
  }
  if (!(spec.theta >= 0.0 && spec.theta < 1.0)) {
    Fail(path, "theta", "must be a number in [0, 1), got " + Text(spec.theta));
  }
  if (spec.keys < WorkloadSpec::kMinKeys || spec.keys > WorkloadSpec::kMaxKeys) {
    Fail(path, "keys",
         "must be an integer in [" + std::to_string(WorkloadSpec::kMinKeys) + ", " +
             std::to_string(WorkloadSpec::kMaxKeys) + "], got " + std::to_string(spec.keys));
  }
  if (spec.zipf_population != 0) ValidatePopulation(spec, path);
  if (!(spec.bulkload_fraction > 0.0 && spec.bulkload_fraction <= 1.0)) {
    Fail(path, "bulkload_fraction",
         "must be a number in (0, 1], got " + Text(spec.bulkload_fraction));
  }
  if (spec.BulkloadCount() == 0) {
    Fail(path, "bulkload_fraction",
         "must load at least one of the " + std::to_string(spec.keys) + " keys, got " +
             Text(spec.bulkload_fraction));
  }
  if (spec.range_size < 1 || spec.range_size > WorkloadSpec::kMaxRangeSize) {
    Fail(path, "range_size",
         "must be an integer in [1, " + std::to_string(WorkloadSpec::kMaxRangeSize) + "], got " +
             std::to_string(spec.range_size));
  }
  if (spec.scan_max < 1 || spec.scan_max > WorkloadSpec::kMaxScan) {
    Fail(path, "scan_max",
         "must be an integer in [1, " + std::to_string(WorkloadSpec::kMaxScan) + "], got " +
             std::to_string(spec.scan_max));
  }
  ValidateTrace(spec, path);
}

}  // namespace

const char* OpTypeName(OpType type) {
  switch (type) {
    case OpType::kInsert:
      return "insert";
    case OpType::kUpdate:
      return "update";
    case OpType::kLookup:
      return "lookup";
    case OpType::kDelete:
      return "delete";
    case OpType::kRange:
      return "range";
  }
  return "unknown";
}

const char* KeyDistributionName(KeyDistribution distribution) {
  switch (distribution) {
    case KeyDistribution::kZipfian:
      return "zipfian";
    case KeyDistribution::kUniform:
      return "uniform";
    case KeyDistribution::kLatest:
      return "latest";
  }
  return "unknown";
}

const std::vector<std::string>& WorkloadSpec::MixNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const MixDefinition& mix : kMixes) all.emplace_back(mix.name);
    all.emplace_back(kCustom);
    return all;
  }();
  return names;
}

void WorkloadSpec::SetMix(const std::string& name) {
  const MixDefinition* definition = FindMix(name);
  if (definition == nullptr && name != kCustom) {
    throw ConfigError("workload.mix: must be one of {" + MixList() + "}, got \"" + name + "\"");
  }
  mix = name;
  if (definition != nullptr) {
    for (const FractionField& field : kFractions) {
      this->*field.spec_member = definition->*field.mix_member;
    }
  }
  split_clients = name == kRangeWrite;
  if (name == kYcsbD) {
    distribution = KeyDistribution::kLatest;
  } else if (distribution == KeyDistribution::kLatest) {
    distribution = KeyDistribution::kZipfian;
  }
}

uint64_t WorkloadSpec::BulkloadCount() const {
  if (!(bulkload_fraction > 0.0)) return 0;
  if (bulkload_fraction >= 1.0) return keys;
  const double count = std::round(static_cast<double>(keys) * bulkload_fraction);
  return std::min(keys, static_cast<uint64_t>(count));
}

void WorkloadSpec::Validate() const {
  ValidateSpec(*this, [](const std::string& key) { return "workload." + key; });
}

const ConfigFields<WorkloadSpec>& WorkloadSpec::Fields() {
  static const ConfigFields<WorkloadSpec> fields = [] {
    using W = WorkloadSpec;
    ConfigFields<WorkloadSpec> list;
    list.Custom(
        "mix", "one of {" + MixList() + "}",
        "the operation mix: the paper's (Table 3), YCSB's core workloads, or custom fractions",
        // The mix first: it fixes the fractions the fields below may only repeat.
        [](JsonObjectReader& reader, W& spec) {
          const bool was_custom = spec.mix == kCustom;
          spec.SetMix(reader.Choice("mix", spec.mix, MixNames()));
          // Custom fractions a config leaves out are 0, unless they were already custom ones.
          if (spec.mix == kCustom && !was_custom) {
            for (const FractionField& field : kFractions) spec.*field.spec_member = 0.0;
          }
        },
        [](const W& spec) { return nlohmann::json(spec.mix); });
    for (const FractionField& field : kFractions) {
      list.Number(field.key, field.spec_member, 0.0, 1.0,
                  std::string("fraction of ") + field.key +
                      " operations: set by a named mix, chosen with mix custom");
    }
    list.Bool("split_clients", &W::split_clients,
              "half the clients only insert, half only range-query: set by mix range-write")
        .Choice("distribution", &W::distribution,
                {{"zipfian", KeyDistribution::kZipfian},
                 {"uniform", KeyDistribution::kUniform},
                 {"latest", KeyDistribution::kLatest}},
                "key popularity (latest: YCSB's, for ycsb-d)")
        .Number("theta", &W::theta, 0.0, 1.0, "Zipfian skew, in [0, 1)")
        .Unsigned("keys", &W::keys, kMinKeys, kMaxKeys, "key space size")
        .Unsigned("zipf_population", &W::zipf_population, 0, kMaxZipfPopulation,
                  "Zipfian ranks drawn over this many items (0: the key count), so that a "
                  "scaled key space keeps the paper's key popularity")
        .Number("bulkload_fraction", &W::bulkload_fraction, 0.0, 1.0,
                "share of the key space bulkloaded before the run")
        .Unsigned("range_size", &W::range_size, 1, kMaxRangeSize,
                  "range queries cover keys [k, k + range_size)")
        .Unsigned("scan_max", &W::scan_max, 1, kMaxScan,
                  "ycsb-e scans return up to U[1, scan_max] records")
        .OptionalPath("trace", &W::trace,
                      "a YCSB trace (basic database output) to replay instead of the mix")
        .OptionalPath("trace_load", &W::trace_load,
                      "a YCSB load trace whose INSERT keys are bulkloaded (with trace)")
        .Choice("trace_split", &W::trace_split,
                {{"round-robin", TraceSplit::kRoundRobin}, {"blocks", TraceSplit::kBlocks}},
                "how trace operations are dealt to clients: i to client i mod C, or blocks");
    return list;
  }();
  return fields;
}

void WorkloadSpec::ReadJson(JsonObjectReader& reader) {
  // Work on a copy so that a config error leaves this spec as it was.
  WorkloadSpec next = *this;
  Fields().Read(reader, next);
  reader.RejectUnknownKeys();
  ValidateSpec(next, [&reader](const std::string& key) { return reader.FieldPath(key); });
  // A named mix's fractions passed validation within a tolerance; store the exact ones.
  if (next.mix != kCustom) next.SetMix(next.mix);
  *this = next;
}

nlohmann::json WorkloadSpec::ToJson() const { return Fields().Write(*this); }

}  // namespace dmbench::workloads
