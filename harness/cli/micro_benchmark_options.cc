// The options of `dmbench micro` and each benchmark's config read from
// them, with the ranges and refusals of those options; micro_command.cc
// checks the measurement window and --out.
#include "harness/cli/micro_benchmark_options.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "harness/cli/cli_support.h"
#include "harness/driver/memory_budget.h"
#include "harness/rdma/errors.h"

namespace dmbench::cli {

namespace po = boost::program_options;

namespace {

template <typename T>
T Choose(const std::string& option, const std::string& value,
         const std::vector<std::pair<std::string, T>>& choices) {
  std::string allowed;
  for (const auto& [name, choice] : choices) {
    if (name == value) return choice;
    allowed += (allowed.empty() ? "" : ", ") + name;
  }
  throw ConfigError("--" + option + ": '" + value + "' is not one of {" + allowed + "}");
}

// The unsigned value of `option`, refused unless in [min, max]; `why` says
// what the bounds mean, if anything.
uint64_t UnsignedOption(const po::variables_map& values, const std::string& option, uint64_t min,
                        uint64_t max, const std::string& why = "") {
  const uint64_t value = values[option].as<uint64_t>();
  if (value < min || value > max) {
    throw ConfigError("--" + option + ": " + std::to_string(value) + " is out of range; give " +
                      std::to_string(min) + ".." + std::to_string(max) +
                      (why.empty() ? "" : " (" + why + ")"));
  }
  return value;
}

rdma::Topology TopologyFrom(const po::variables_map& values, rdma::Topology topology) {
  if (values.count("colocated")) {
    const bool colocated = Choose<bool>("colocated", values["colocated"].as<std::string>(),
                                        {{"true", true}, {"false", false}});
    // Apart, the lock and verb benchmarks need one memory server; together,
    // one per compute server (set below).
    if (topology.colocated && !colocated) topology.memory_servers = 1;
    topology.colocated = colocated;
  }
  auto take = [&](const char* option, uint32_t& field) {
    if (!values.count(option)) return;
    // Checked before narrowing: 2^32 + 1 threads must not become 1.
    field = static_cast<uint32_t>(UnsignedOption(values, option, 0, UINT32_MAX));
  };
  take("compute-servers", topology.compute_servers);
  take("threads", topology.threads_per_compute_server);
  take("coroutines", topology.coroutines_per_thread);
  take("memory-servers", topology.memory_servers);
  if (topology.colocated && !values.count("memory-servers")) {
    topology.memory_servers = topology.compute_servers;
  }
  topology.Validate();
  driver::RequireSimulatedTopology(topology);
  return topology;
}

// The elements of list option `option`, each refused unless in [min, max],
// the refusal calling each a `noun`.
std::vector<uint32_t> BoundedList(const po::variables_map& values, const std::string& option,
                                  uint32_t min, uint32_t max, const std::string& noun) {
  std::vector<uint32_t> list;
  for (uint64_t element : ParseUnsignedList(option, values[option].as<std::string>())) {
    if (element < min || element > max) {
      throw ConfigError("--" + option + ": each " + noun + " must be in [" + std::to_string(min) +
                        ", " + std::to_string(max) + "]");
    }
    list.push_back(static_cast<uint32_t>(element));
  }
  return list;
}

std::vector<double> Thetas(const po::variables_map& values) {
  std::vector<double> thetas = ParseNumberList("thetas", values["thetas"].as<std::string>());
  for (double theta : thetas) {
    if (theta >= 1) throw ConfigError("--thetas: each theta must be in [0, 1)");
  }
  return thetas;
}

std::vector<rdma::Verb> Verbs(const po::variables_map& values) {
  return Choose<std::vector<rdma::Verb>>("verb", values["verb"].as<std::string>(),
                                         {{"read", {rdma::Verb::kRead}},
                                          {"write", {rdma::Verb::kWrite}},
                                          {"both", {rdma::Verb::kRead, rdma::Verb::kWrite}}});
}

std::vector<rdma::MemorySpace> MemorySpaces(const po::variables_map& values) {
  return Choose<std::vector<rdma::MemorySpace>>(
      "memory", values["memory"].as<std::string>(),
      {{"host", {rdma::MemorySpace::kHost}},
       {"onchip", {rdma::MemorySpace::kOnChip}},
       {"both", {rdma::MemorySpace::kHost, rdma::MemorySpace::kOnChip}}});
}

uint32_t Locks(const po::variables_map& values) {
  return static_cast<uint32_t>(UnsignedOption(values, "locks", 1, 1000000));
}

uint64_t KeySpace(const po::variables_map& values, uint32_t locks) {
  const uint64_t key_space = values["key-space"].as<uint64_t>();
  if (key_space != 0 && key_space < locks) {
    throw ConfigError("--key-space: " + std::to_string(key_space) +
                      " keys cannot reach all --locks " + std::to_string(locks) +
                      "; give 0 (the locks themselves drawn Zipfian) or at least " +
                      std::to_string(locks));
  }
  return key_space;
}

// The lock benchmarks' common options, in the order both read them: the
// number of locks, the key space hashed to them, then the topology.
template <typename LockBenchmarkConfig>
void ReadLocksAndTopology(const po::variables_map& values, LockBenchmarkConfig& config) {
  config.locks = Locks(values);
  config.key_space = KeySpace(values, config.locks);
  config.topology = TopologyFrom(values, config.topology);
}

}  // namespace

po::options_description MicroBenchmarkOptions() {
  po::options_description options("dmbench micro options");
  options.add_options()("help,h", "show this help")(
      "nic", po::value<std::string>()->default_value("cx5-100g"),
      "NIC profile: a name under configs/nic/ or a JSON file")(
      "nic-set", po::value<std::vector<std::string>>()->composing(),
      "override a profile parameter: --nic-set processing_units=0 (repeatable)")(
      "substrate-set", po::value<std::vector<std::string>>()->composing(),
      "turn on a substrate technique, as a run config's substrate section: --substrate-set "
      "cas_backoff=true (repeatable)")("seed", po::value<uint64_t>()->default_value(1),
                                       "random seed")(
      "warmup-us", po::value<double>(),
      "simulated warm-up per point in us (default: verbs and atomics 20, spinlock 1000)")(
      "measure-us", po::value<double>(),
      "simulated measured window per point in us (default: verbs and atomics 200, spinlock "
      "10000: lock queues need milliseconds to reach their steady state)")(
      "out", po::value<std::string>(), "write the results as JSON to this file")(
      "latency-from", po::value<std::string>(),
      "whose operations are latency samples: all (every client) or N (compute server N's "
      "clients, as Sherman's driver prints node 0's; default: all)")(
      "compute-servers", po::value<uint64_t>(), "override the benchmark's compute servers")(
      "threads", po::value<uint64_t>(), "override client threads per compute server")(
      "coroutines", po::value<uint64_t>(), "override coroutines per thread")(
      "memory-servers", po::value<uint64_t>(), "override memory servers (outbound verbs)")(
      "colocated", po::value<std::string>(),
      "true: machine i hosts memory server i and compute server i, so memory servers follow "
      "compute servers and a machine's own clients reach its memory over loopback (default "
      "for hocl, as on the paper's cluster); false: every server a machine of its own")(
      "verb", po::value<std::string>()->default_value("both"),
      "verbs, scaleup: read, write or both")(
      "sizes", po::value<std::string>()->default_value("8,16,32,64,128,256,512,1024,2048,4096"),
      "verbs: IO sizes in bytes, 1..4096")(
      "direction", po::value<std::string>()->default_value("inbound"),
      "verbs: inbound (all clients to one memory server) or outbound (one compute server to "
      "all memory servers)")("depth", po::value<uint64_t>()->default_value(1),
                             "verbs: work requests per batch per client, 1..64")(
      "memory", po::value<std::string>()->default_value("both"),
      "atomics, interference: host, onchip or both")(
      "addresses", po::value<std::string>()->default_value("1,8,64,1024"),
      "atomics: numbers of distinct words")(
      "thetas", po::value<std::string>(),
      "spinlock, hocl: Zipfian skews, each in [0, 1) (default: spinlock 0,0.8,0.9,0.95,0.99; "
      "hocl 0.99)")("release", po::value<std::string>()->default_value("both"),
                    "spinlock: faa (FG), write (FG+) or both")(
      "locks", po::value<uint64_t>()->default_value(10240), "spinlock, hocl: number of locks")(
      "key-space", po::value<uint64_t>()->default_value(micro::kShermanLockBenchKeySpace),
      "spinlock, hocl: keys drawn Zipfian, each hashed to a lock, as Sherman's lock benchmark "
      "does (its driver's 64 Mi keys by default); 0 draws the locks themselves Zipfian")(
      "release-wait", po::value<std::string>()->default_value("posted"),
      "hocl: posted (the release is posted without waiting, as Sherman's lock benchmark does) "
      "or awaited (as the trees do)")(
      "max-handovers", po::value<uint64_t>(),
      "hocl: handovers in a row in the +Handover step (default 8, Sherman's kMaxHandOverTime)")(
      "keys", po::value<uint64_t>(),
      "cpu: key space whose bulkloaded level-1 nodes fill the index cache (default 10000000; "
      "the paper's is 1000000000)")(
      "cache-mib", po::value<uint64_t>(),
      "cpu: index cache per compute server in MiB (default 64; the paper's is 500)")(
      "spinners", po::value<std::string>()->default_value("0,32,96,128,160"),
      "interference: numbers of spinning clients (the others READ)")(
      "thread-counts",
      po::value<std::string>()->default_value("1,8,16,24,32,40,48,56,64,72,80,88,96"),
      "scaleup: client threads of the one compute server, each 1..4096")(
      "depths", po::value<std::string>()->default_value("8"),
      "scaleup: work requests each thread posts before it waits, each 1..256")(
      "doorbells", po::value<std::string>()->default_value("both"),
      "scaleup: qp (per-thread QP, the driver's doorbells), thread (per-thread doorbell) or both");
  return options;
}

void RequireBenchmarkName(const std::string& benchmark) {
  Choose<int>("benchmark", benchmark,
              {{"verbs", 0},
               {"atomics", 0},
               {"spinlock", 0},
               {"hocl", 0},
               {"interference", 0},
               {"calibration", 0},
               {"scaleup", 0},
               {"cpu", 0},
               {"all", 0}});
}

std::optional<uint32_t> LatencyFrom(const po::variables_map& values) {
  if (!values.count("latency-from")) return std::nullopt;
  const std::string text = values["latency-from"].as<std::string>();
  if (text == "all") return std::nullopt;
  const bool digits = !text.empty() && text.size() <= 9 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) {
    throw ConfigError("--latency-from: '" + text +
                      "' is neither all nor a compute server index (0, 1, ...)");
  }
  return static_cast<uint32_t>(std::stoul(text));
}

micro::VerbBenchmarkConfig VerbConfigFrom(const po::variables_map& values) {
  micro::VerbBenchmarkConfig config;
  config.verbs = Verbs(values);
  config.sizes = BoundedList(values, "sizes", 1, 4096, "size");
  config.inbound = Choose<bool>("direction", values["direction"].as<std::string>(),
                                {{"inbound", true}, {"outbound", false}});
  const uint64_t depth = values["depth"].as<uint64_t>();
  if (depth < 1 || depth > 64) throw ConfigError("--depth must be in [1, 64]");
  config.depth = static_cast<uint32_t>(depth);
  rdma::Topology topology = config.topology;
  if (!config.inbound) topology.memory_servers = 8;
  config.topology = TopologyFrom(values, topology);
  return config;
}

micro::AtomicBenchmarkConfig AtomicConfigFrom(const po::variables_map& values) {
  micro::AtomicBenchmarkConfig config;
  config.spaces = MemorySpaces(values);
  // On-chip memory holds 32768 words of 8 bytes.
  config.address_counts = BoundedList(values, "addresses", 1, 32768, "count");
  config.topology = TopologyFrom(values, config.topology);
  return config;
}

micro::SpinlockBenchmarkConfig SpinlockConfigFrom(const po::variables_map& values) {
  micro::SpinlockBenchmarkConfig config;
  if (values.count("thetas")) config.thetas = Thetas(values);
  config.releases = Choose<std::vector<micro::LockRelease>>(
      "release", values["release"].as<std::string>(),
      {{"faa", {micro::LockRelease::kFetchAndAdd}},
       {"write", {micro::LockRelease::kWrite}},
       {"both", {micro::LockRelease::kFetchAndAdd, micro::LockRelease::kWrite}}});
  ReadLocksAndTopology(values, config);
  return config;
}

micro::HoclBenchmarkConfig HoclConfigFrom(const po::variables_map& values) {
  micro::HoclBenchmarkConfig config;
  if (values.count("thetas")) config.thetas = Thetas(values);
  config.await_release = Choose<bool>("release-wait", values["release-wait"].as<std::string>(),
                                      {{"posted", false}, {"awaited", true}});
  if (values.count("max-handovers")) {
    config.variants = micro::HoclBenchmarkConfig::DefaultVariants(static_cast<uint32_t>(
        UnsignedOption(values, "max-handovers", 1, 1024,
                       "the +Hierarchical step already measures no handover")));
  }
  ReadLocksAndTopology(values, config);
  return config;
}

micro::InterferenceBenchmarkConfig InterferenceConfigFrom(const po::variables_map& values) {
  micro::InterferenceBenchmarkConfig config;
  config.spaces = MemorySpaces(values);
  config.spinners.clear();
  for (uint64_t count : ParseUnsignedList("spinners", values["spinners"].as<std::string>())) {
    config.spinners.push_back(static_cast<uint32_t>(std::min<uint64_t>(count, UINT32_MAX)));
  }
  config.topology = TopologyFrom(values, config.topology);
  return config;
}

micro::ScaleUpBenchmarkConfig ScaleUpConfigFrom(const po::variables_map& values) {
  micro::ScaleUpBenchmarkConfig config;
  config.verbs = Verbs(values);
  config.thread_counts = BoundedList(values, "thread-counts", 1, 4096, "count");
  config.depths = BoundedList(values, "depths", 1, 256, "depth");
  config.per_thread_doorbells =
      Choose<std::vector<bool>>("doorbells", values["doorbells"].as<std::string>(),
                                {{"qp", {false}}, {"thread", {true}}, {"both", {false, true}}});
  return config;
}

micro::CpuCostBenchmarkConfig CpuCostConfigFrom(const po::variables_map& values, uint64_t seed) {
  micro::CpuCostBenchmarkConfig config;
  config.seed = seed;
  if (values.count("keys")) config.keys = UnsignedOption(values, "keys", 1000, uint64_t{1} << 40);
  if (values.count("cache-mib")) {
    config.tree.cache_bytes = UnsignedOption(values, "cache-mib", 1, uint64_t{1} << 20) << 20;
  }
  return config;
}

}  // namespace dmbench::cli
