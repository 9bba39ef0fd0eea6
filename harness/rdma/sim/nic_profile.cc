#include "harness/rdma/sim/nic_profile.h"

#include <bit>
#include <cstdlib>
#include <filesystem>

#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::rdma::sim {

namespace {

// Reads {"value": number, "source": "..."}; the source is mandatory so that
// no number enters the model without provenance.
double Parameter(JsonObjectReader& parameters, const std::string& key, double min, double max) {
  JsonObjectReader parameter = parameters.Object(key);
  const double value = parameter.RequiredNumber("value", min, max);
  parameter.RequiredString("source");
  parameter.RejectUnknownKeys();
  return value;
}

uint64_t WholeParameter(JsonObjectReader& parameters, const std::string& key, uint64_t min,
                        uint64_t max) {
  const double value =
      Parameter(parameters, key, static_cast<double>(min), static_cast<double>(max));
  if (value != static_cast<double>(static_cast<uint64_t>(value))) {
    throw ConfigError(parameters.FieldPath(key) + ".value: must be a whole number, got " +
                      std::to_string(value));
  }
  return static_cast<uint64_t>(value);
}

}  // namespace

const char* DmaOrderName(DmaOrder order) {
  switch (order) {
    case DmaOrder::kAscending:
      return "ascending";
    case DmaOrder::kDescending:
      return "descending";
    case DmaOrder::kRandom:
      return "random";
  }
  return "unknown";
}

NicProfile NicProfile::FromJson(JsonObjectReader& reader) {
  NicProfile profile;
  profile.name = reader.RequiredString("name");
  reader.String("description", "");
  JsonObjectReader p = reader.Object("parameters");
  profile.cpu_post_request_ns = Parameter(p, "cpu_post_request_ns", 0, 1e6);
  profile.cpu_doorbell_ns = Parameter(p, "cpu_doorbell_ns", 0, 1e6);
  profile.cpu_poll_completion_ns = Parameter(p, "cpu_poll_completion_ns", 0, 1e6);
  profile.cpu_wakeup_ns = Parameter(p, "cpu_wakeup_ns", 0, 1e6);
  profile.link_bandwidth_gbps = Parameter(p, "link_bandwidth_gbps", 0.1, 1e5);
  profile.link_latency_ns = Parameter(p, "link_latency_ns", 0, 1e6);
  profile.link_packet_overhead_bytes = WholeParameter(p, "link_packet_overhead_bytes", 0, 4096);
  profile.link_mtu_bytes = WholeParameter(p, "link_mtu_bytes", 256, 1 << 16);
  profile.nic_latency_ns = Parameter(p, "nic_latency_ns", 0, 1e6);
  profile.nic_outbound_mops = Parameter(p, "nic_outbound_mops", 0.001, 1e5);
  profile.nic_inbound_mops = Parameter(p, "nic_inbound_mops", 0.001, 1e5);
  profile.pcie_read_latency_ns = Parameter(p, "pcie_read_latency_ns", 0, 1e6);
  profile.pcie_write_latency_ns = Parameter(p, "pcie_write_latency_ns", 0, 1e6);
  profile.pcie_bandwidth_gbps = Parameter(p, "pcie_bandwidth_gbps", 0.1, 1e5);
  profile.on_chip_memory_kib = WholeParameter(p, "on_chip_memory_kib", 0, 1 << 20);
  profile.on_chip_access_ns = Parameter(p, "on_chip_access_ns", 0, 1e6);
  profile.atomic_buckets = WholeParameter(p, "atomic_buckets", 1, 1 << 24);
  if (!std::has_single_bit(profile.atomic_buckets)) {
    throw ConfigError(p.FieldPath("atomic_buckets") + ".value: must be a power of two, got " +
                      std::to_string(profile.atomic_buckets));
  }
  profile.atomic_on_chip_ns = Parameter(p, "atomic_on_chip_ns", 0, 1e6);
  profile.cacheline_bytes = WholeParameter(p, "cacheline_bytes", 8, 4096);
  if (!std::has_single_bit(profile.cacheline_bytes)) {
    throw ConfigError(p.FieldPath("cacheline_bytes") + ".value: must be a power of two, got " +
                      std::to_string(profile.cacheline_bytes));
  }
  {
    JsonObjectReader order = p.Object("dma_read_order");
    if (!order.Has("value")) {
      throw ConfigError(order.FieldPath("value") +
                        ": is required: one of {ascending, descending, random}");
    }
    const std::string name =
        order.Choice("value", "ascending", {"ascending", "descending", "random"});
    order.RequiredString("source");
    order.RejectUnknownKeys();
    profile.dma_read_order = ParseDmaOrder(name);
  }
  p.RejectUnknownKeys();
  reader.RejectUnknownKeys();
  return profile;
}

DmaOrder ParseDmaOrder(const std::string& name) {
  if (name == "ascending") return DmaOrder::kAscending;
  if (name == "descending") return DmaOrder::kDescending;
  if (name == "random") return DmaOrder::kRandom;
  throw ConfigError("dma_read_order: must be one of {ascending, descending, random}, got \"" +
                    name + "\"");
}

std::string ConfigDirectory() {
  if (const char* directory = std::getenv("DMBENCH_CONFIG_DIR")) return directory;
  return std::string(DMBENCH_SOURCE_DIR) + "/configs";
}

NicProfile NicProfile::Find(const std::string& name_or_path) {
  const bool is_path =
      name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json");
  if (is_path) return Load(name_or_path);
  const std::filesystem::path directory = std::filesystem::path(ConfigDirectory()) / "nic";
  const std::filesystem::path file = directory / (name_or_path + ".json");
  if (!std::filesystem::exists(file)) {
    std::string available;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
      if (entry.path().extension() == ".json") {
        available += (available.empty() ? "" : ", ") + entry.path().stem().string();
      }
    }
    throw ConfigError("unknown NIC profile '" + name_or_path + "' (available in " +
                      directory.string() + ": " + (available.empty() ? "none" : available) + ")");
  }
  return Load(file.string());
}

nlohmann::json NicProfile::ToJson() const {
  return {{"name", name},
          {"cpu_post_request_ns", cpu_post_request_ns},
          {"cpu_doorbell_ns", cpu_doorbell_ns},
          {"cpu_poll_completion_ns", cpu_poll_completion_ns},
          {"cpu_wakeup_ns", cpu_wakeup_ns},
          {"link_bandwidth_gbps", link_bandwidth_gbps},
          {"link_latency_ns", link_latency_ns},
          {"link_packet_overhead_bytes", link_packet_overhead_bytes},
          {"link_mtu_bytes", link_mtu_bytes},
          {"nic_latency_ns", nic_latency_ns},
          {"nic_outbound_mops", nic_outbound_mops},
          {"nic_inbound_mops", nic_inbound_mops},
          {"pcie_read_latency_ns", pcie_read_latency_ns},
          {"pcie_write_latency_ns", pcie_write_latency_ns},
          {"pcie_bandwidth_gbps", pcie_bandwidth_gbps},
          {"on_chip_memory_kib", on_chip_memory_kib},
          {"on_chip_access_ns", on_chip_access_ns},
          {"atomic_buckets", atomic_buckets},
          {"atomic_on_chip_ns", atomic_on_chip_ns},
          {"cacheline_bytes", cacheline_bytes},
          {"dma_read_order", DmaOrderName(dma_read_order)}};
}

NicProfile NicProfile::Load(const std::string& file) {
  const nlohmann::json document = ReadJsonFile(file);
  try {
    JsonObjectReader reader(document, "");
    return FromJson(reader);
  } catch (const ConfigError& error) {
    throw ConfigError("NIC profile " + file + ": " + error.what());
  }
}

}  // namespace dmbench::rdma::sim
