#include "harness/rdma/sim/nic_parameters.h"

#include <array>

namespace dmbench::rdma::sim {

namespace {

using Kind = NicParameter::Kind;

NicParameter Common(std::string_view key, std::string_view group, std::string_view meaning,
                    Kind kind) {
  NicParameter parameter;
  parameter.key = key;
  parameter.group = group;
  parameter.meaning = meaning;
  parameter.kind = kind;
  return parameter;
}

NicParameter Real(std::string_view key, std::string_view group, std::string_view meaning,
                  double NicProfile::*member, double min, double max) {
  NicParameter parameter = Common(key, group, meaning, Kind::kReal);
  parameter.real = member;
  parameter.min = min;
  parameter.max = max;
  return parameter;
}

NicParameter Whole(std::string_view key, std::string_view group, std::string_view meaning,
                   uint64_t NicProfile::*member, double min, double max,
                   bool power_of_two = false) {
  NicParameter parameter = Common(key, group, meaning, Kind::kWhole);
  parameter.whole = member;
  parameter.min = min;
  parameter.max = max;
  parameter.power_of_two = power_of_two;
  return parameter;
}

NicParameter Choice(std::string_view key, std::string_view group, std::string_view meaning,
                    std::span<const std::string_view> names,
                    std::string_view (*get)(const NicProfile&),
                    void (*set)(NicProfile&, std::string_view)) {
  NicParameter parameter = Common(key, group, meaning, Kind::kChoice);
  parameter.names = names;
  parameter.get = get;
  parameter.set = set;
  return parameter;
}

// `parameter`, which a profile may leave out for `value` (its mechanism off).
NicParameter Off(NicParameter parameter, double value) {
  parameter.has_default = true;
  parameter.default_value = value;
  return parameter;
}

NicParameter Off(NicParameter parameter, std::string_view name) {
  parameter.has_default = true;
  parameter.default_name = name;
  return parameter;
}

constexpr std::array<std::string_view, 3> kDmaOrders = {"ascending", "descending", "random"};
constexpr std::array<std::string_view, 2> kArbitrations = {"fifo", "random"};

constexpr std::string_view kCompute = "Compute CPU";
constexpr std::string_view kNetwork = "Network";
constexpr std::string_view kNic = "NIC";
constexpr std::string_view kPcie = "PCIe";
constexpr std::string_view kOnChip = "On-chip memory";
constexpr std::string_view kAtomics = "Atomics";
constexpr std::string_view kMemory = "Memory";

const NicParameter kParameters[] = {
    Real("cpu_post_request_ns", kCompute, "CPU ns to build and post one work request",
         &NicProfile::cpu_post_request_ns, 0, 1e6),
    Real("cpu_doorbell_ns", kCompute, "CPU ns per batch posted (one doorbell)",
         &NicProfile::cpu_doorbell_ns, 0, 1e6),
    Real("cpu_poll_completion_ns", kCompute, "CPU ns per completion polled",
         &NicProfile::cpu_poll_completion_ns, 0, 1e6),
    Real("cpu_wakeup_ns", kCompute, "CPU ns to wake a parked client of the same compute server",
         &NicProfile::cpu_wakeup_ns, 0, 1e6),
    Off(Real("cpu_lock_spinner_ns", kCompute,
             "CPU ns a local lock hand-off takes longer per other client waiting on the same lock; "
             "0 = waiters cost nothing",
             &NicProfile::cpu_lock_spinner_ns, 0, 1e6),
        0),
    Off(Real("cpu_doorbell_spinner_ns", kCompute,
             "CPU ns a shared doorbell's locked update takes longer per other thread queued on "
             "its spinlock; 0 = waiters cost nothing",
             &NicProfile::cpu_doorbell_spinner_ns, 0, 1e6),
        0),
    Off(Real("cpu_index_cache_lookup_ns", kCompute,
             "CPU ns per index-cache lookup; 0 = not charged",
             &NicProfile::cpu_index_cache_lookup_ns, 0, 1e6),
        0),
    Off(Real("cpu_key_generation_ns", kCompute,
             "CPU ns per operation the workload generates (key draw, mix choice); 0 = not charged",
             &NicProfile::cpu_key_generation_ns, 0, 1e6),
        0),
    Off(Real("cpu_crc_ns_per_byte", kCompute,
             "CPU ns per byte of CRC32C computed or checked; 0 = not charged",
             &NicProfile::cpu_crc_ns_per_byte, 0, 1e3),
        0),
    Off(Real(
            "cpu_coroutine_switch_ns", kCompute,
            "CPU ns per resumption of a suspended client coroutine (its two context switches); 0 = "
            "not charged",
            &NicProfile::cpu_coroutine_switch_ns, 0, 1e6),
        0),
    Real("link_bandwidth_gbps", kNetwork, "link bandwidth per direction, Gbit/s",
         &NicProfile::link_bandwidth_gbps, 0.1, 1e5),
    Real("link_latency_ns", kNetwork, "one-way wire and switch latency, ns",
         &NicProfile::link_latency_ns, 0, 1e6),
    Whole("link_packet_overhead_bytes", kNetwork, "header bytes per packet on the wire",
          &NicProfile::link_packet_overhead_bytes, 0, 4096),
    Whole("link_mtu_bytes", kNetwork, "payload bytes per packet", &NicProfile::link_mtu_bytes, 256,
          1 << 16),
    Real("nic_latency_ns", kNic, "pipeline latency of one NIC traversal, ns",
         &NicProfile::nic_latency_ns, 0, 1e6),
    Real("nic_outbound_mops", kNic, "requests a NIC issues per second, millions",
         &NicProfile::nic_outbound_mops, 0.001, 1e5),
    Real("nic_inbound_mops", kNic, "requests a NIC serves per second, millions",
         &NicProfile::nic_inbound_mops, 0.001, 1e5),
    Off(Whole("processing_units", kNic,
              "responder processing units per NIC; QPs bound by hash; an atomic holds its unit "
              "until its bucket grants it and its memory read returns (head-of-line blocking); "
              "0 = not modelled",
              &NicProfile::processing_units, 0, 1024),
        0),
    Off(Whole("atomic_parking_slots", kNic,
              "atomics a NIC holds aside while they wait for a busy bucket, releasing their "
              "processing unit; with all taken, a waiting atomic holds its unit (needs "
              "processing_units)",
              &NicProfile::atomic_parking_slots, 0, 1 << 20),
        0),
    Off(Whole("doorbells_dedicated", kNic,
              "requester doorbell registers a device context gives one QP each (the first QPs "
              "created), without a lock (needs doorbells_shared)",
              &NicProfile::doorbells_dedicated, 0, 1 << 16),
        0),
    Off(Whole("doorbells_shared", kNic,
              "requester doorbell registers the remaining QPs share round-robin, each update "
              "under the register's spinlock; 0 = doorbell contention not modelled",
              &NicProfile::doorbells_shared, 0, 1 << 16),
        0),
    Off(Whole("wqe_cache_entries", kNic,
              "outstanding work requests the requester NIC caches; beyond that a request misses "
              "with probability 1 - entries / outstanding; 0 = not modelled",
              &NicProfile::wqe_cache_entries, 0, 1 << 24),
        0),
    Off(Real("wqe_miss_ns", kNic,
             "message-engine ns a work request that misses the cache takes longer (needs "
             "wqe_cache_entries)",
             &NicProfile::wqe_miss_ns, 0, 1e6),
        0),
    Real("pcie_read_latency_ns", kPcie, "DMA read round trip, ns",
         &NicProfile::pcie_read_latency_ns, 0, 1e6),
    Real("pcie_write_latency_ns", kPcie, "until a DMA write is visible in host memory, ns",
         &NicProfile::pcie_write_latency_ns, 0, 1e6),
    Real("pcie_bandwidth_gbps", kPcie, "DMA bandwidth per direction, Gbit/s",
         &NicProfile::pcie_bandwidth_gbps, 0.1, 1e5),
    Whole("on_chip_memory_kib", kOnChip, "device memory exposed per NIC, KiB",
          &NicProfile::on_chip_memory_kib, 0, 1 << 20),
    Real("on_chip_access_ns", kOnChip, "READ/WRITE access to device memory, ns",
         &NicProfile::on_chip_access_ns, 0, 1e6),
    Whole("atomic_buckets", kAtomics,
          "atomics whose address low bits match serialize; bucket count (power of two)",
          &NicProfile::atomic_buckets, 1, 1 << 24, /*power_of_two=*/true),
    Real("atomic_on_chip_ns", kAtomics, "bucket occupancy of an atomic on device memory, ns",
         &NicProfile::atomic_on_chip_ns, 0, 1e6),
    Off(Choice(
            "atomic_bucket_arbitration", kAtomics,
            "which waiting atomic a freed bucket serves: fifo (arrival order) or random",
            kArbitrations,
            [](const NicProfile& p) -> std::string_view {
              return BucketArbitrationName(p.atomic_bucket_arbitration);
            },
            [](NicProfile& p, std::string_view name) {
              p.atomic_bucket_arbitration = ParseBucketArbitration(std::string(name));
            }),
        std::string_view("fifo")),
    Whole("cacheline_bytes", kMemory, "DMA granularity: reads tear at cacheline boundaries",
          &NicProfile::cacheline_bytes, 8, 4096, /*power_of_two=*/true),
    Off(Choice(
            "dma_read_order", kMemory, "order in which a READ's cachelines are fetched", kDmaOrders,
            [](const NicProfile& p) -> std::string_view { return DmaOrderName(p.dma_read_order); },
            [](NicProfile& p, std::string_view name) {
              p.dma_read_order = ParseDmaOrder(std::string(name));
            }),
        std::string_view("ascending")),
};

}  // namespace

std::span<const NicParameter> NicParameters() { return kParameters; }

}  // namespace dmbench::rdma::sim
