#include "harness/cli/micro_command.h"

#include <boost/program_options.hpp>

#include <iostream>
#include <optional>

#include "harness/cli/cli_support.h"
#include "harness/driver/benchmark_runner.h"
#include "harness/driver/build_info.h"
#include "harness/driver/memory_budget.h"
#include "harness/driver/run_config.h"
#include "harness/micro/atomic_benchmark.h"
#include "harness/micro/calibration_benchmarks.h"
#include "harness/micro/cpu_cost_benchmark.h"
#include "harness/micro/hocl_benchmark.h"
#include "harness/micro/interference_benchmark.h"
#include "harness/micro/scale_up_benchmark.h"
#include "harness/micro/spinlock_benchmark.h"
#include "harness/micro/verb_benchmark.h"
#include "harness/rdma/errors.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::cli {

namespace po = boost::program_options;

namespace {

constexpr const char* kMicroUsage =
    "usage: dmbench micro {verbs|atomics|spinlock|hocl|interference|calibration|cpu|all}\n"
    "       [options]\n"
    "  verbs     READ/WRITE throughput and latency vs IO size (Sherman Fig. 3)\n"
    "  atomics   CAS throughput to 1..K addresses, host vs on-chip memory\n"
    "  spinlock  RDMA spin locks under Zipfian skew (Sherman Fig. 2)\n"
    "  hocl      the hierarchical on-chip lock: host, +on-chip, local tables without wait queues,\n"
    "            +hierarchical, +handover (Fig. 16)\n"
    "  interference  READ throughput and latency while k clients spin CAS on one word\n"
    "  scaleup   one compute server's 8 B READ/WRITE throughput vs threads and depth, per-thread\n"
    "            QP vs per-thread doorbell (SMART Figs. 3, 4; use --nic cx6-200g)\n"
    "  calibration   the public calibration targets: unloaded round trip, message rates,\n"
    "                WRITE bandwidth, same-address CAS (host, on-chip)\n"
    "  cpu       wall-clock CPU cost of our client code on this machine, per component\n"
    "            (CRC32C byte, index-cache lookup in ours and in the paper's skiplist, key\n"
    "            generation, coroutine resumption):\n"
    "            the source of the NIC profile's cpu_* parameters; not simulated\n"
    "  all       all of them in turn\n";

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

// --latency-from: "all" (or not given) samples every client, a number one
// compute server's clients (MicroOptions::latency_compute_server).
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

}  // namespace

int RunMicroCommand(const std::vector<std::string>& arguments) {
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

  if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h") {
    std::cout << kMicroUsage << "\n" << options;
    return arguments.empty() ? 2 : 0;
  }
  const std::string benchmark = arguments[0];
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

  po::variables_map values;
  const po::parsed_options parsed =
      po::command_line_parser(std::vector<std::string>(arguments.begin() + 1, arguments.end()))
          .options(options)
          .run();
  RefuseNegativeUnsigned(parsed);
  po::store(parsed, values);
  po::notify(values);
  if (values.count("help")) {
    std::cout << kMicroUsage << "\n" << options;
    return 0;
  }

  micro::MicroOptions micro_options;
  micro_options.profile = rdma::sim::NicProfile::Find(values["nic"].as<std::string>());
  if (values.count("nic-set")) {
    nlohmann::json overrides = nlohmann::json::object();
    for (const std::string& assignment : values["nic-set"].as<std::vector<std::string>>()) {
      overrides = driver::ApplySet(std::move(overrides), assignment);
    }
    JsonObjectReader reader(overrides, "--nic-set");
    micro_options.profile.ApplyOverrides(reader, "--nic-set");
  }
  if (values.count("substrate-set")) {
    nlohmann::json substrate = nlohmann::json::object();
    for (const std::string& assignment : values["substrate-set"].as<std::vector<std::string>>()) {
      substrate = driver::ApplySet(std::move(substrate), assignment);
    }
    JsonObjectReader reader(substrate, "--substrate-set");
    micro_options.substrate = rdma::SubstrateOptions::FromJson(reader);
  }
  micro_options.seed = values["seed"].as<uint64_t>();
  // Before the benchmarks run, not after: a mistyped path loses no run.
  std::optional<std::string> out;
  if (values.count("out")) {
    out = values["out"].as<std::string>();
    CheckOutputFile("--out", *out);
  }
  std::ostream& printed = PrintedOutputBeside(out);
  // Each benchmark has its own default window; the options override all.
  auto window = [&](double warmup_us, double measure_us) {
    micro::MicroOptions windowed = micro_options;
    windowed.latency_compute_server = LatencyFrom(values);
    windowed.warmup_us = values.count("warmup-us") ? values["warmup-us"].as<double>() : warmup_us;
    windowed.measure_us =
        values.count("measure-us") ? values["measure-us"].as<double>() : measure_us;
    if (!(windowed.warmup_us >= 0) || !(windowed.measure_us > 0)) {
      throw ConfigError("--warmup-us must be >= 0 and --measure-us > 0");
    }
    return windowed;
  };

  const driver::SourceRevision revision = driver::CurrentRevision();
  nlohmann::json results = {
      {"schema_version", driver::kResultSchemaVersion},
      {"kind", "micro"},
      {"tool",
       {{"name", "dmbench"}, {"git_revision", revision.commit}, {"git_dirty", revision.dirty}}},
      {"backend", {{"type", "sim"}, {"nic_profile", micro_options.profile.ToJson()}}},
      {"substrate", micro_options.substrate.ToJson()},
      {"seed", micro_options.seed},
      {"benchmarks", nlohmann::json::array()}};
  const bool all = benchmark == "all";
  if (all || benchmark == "verbs") {
    micro::VerbBenchmarkConfig config;
    config.verbs = Verbs(values);
    config.sizes.clear();
    for (uint64_t size : ParseUnsignedList("sizes", values["sizes"].as<std::string>())) {
      if (size < 1 || size > 4096) throw ConfigError("--sizes: each size must be in [1, 4096]");
      config.sizes.push_back(static_cast<uint32_t>(size));
    }
    config.inbound = Choose<bool>("direction", values["direction"].as<std::string>(),
                                  {{"inbound", true}, {"outbound", false}});
    const uint64_t depth = values["depth"].as<uint64_t>();
    if (depth < 1 || depth > 64) throw ConfigError("--depth must be in [1, 64]");
    config.depth = static_cast<uint32_t>(depth);
    rdma::Topology topology = config.topology;
    if (!config.inbound) topology.memory_servers = 8;
    config.topology = TopologyFrom(values, topology);
    results["benchmarks"].push_back(micro::RunVerbBenchmark(config, window(20, 200), printed));
  }
  if (all || benchmark == "atomics") {
    micro::AtomicBenchmarkConfig config;
    config.spaces = MemorySpaces(values);
    config.address_counts.clear();
    for (uint64_t count : ParseUnsignedList("addresses", values["addresses"].as<std::string>())) {
      // On-chip memory holds 32768 words of 8 bytes.
      if (count < 1 || count > 32768)
        throw ConfigError("--addresses: each count must be in [1, 32768]");
      config.address_counts.push_back(static_cast<uint32_t>(count));
    }
    config.topology = TopologyFrom(values, config.topology);
    results["benchmarks"].push_back(micro::RunAtomicBenchmark(config, window(20, 200), printed));
  }
  if (all || benchmark == "spinlock") {
    micro::SpinlockBenchmarkConfig config;
    if (values.count("thetas")) config.thetas = Thetas(values);
    config.releases = Choose<std::vector<micro::LockRelease>>(
        "release", values["release"].as<std::string>(),
        {{"faa", {micro::LockRelease::kFetchAndAdd}},
         {"write", {micro::LockRelease::kWrite}},
         {"both", {micro::LockRelease::kFetchAndAdd, micro::LockRelease::kWrite}}});
    config.locks = Locks(values);
    config.key_space = KeySpace(values, config.locks);
    config.topology = TopologyFrom(values, config.topology);
    results["benchmarks"].push_back(
        micro::RunSpinlockBenchmark(config, window(1000, 10000), printed));
  }
  if (all || benchmark == "hocl") {
    micro::HoclBenchmarkConfig config;
    if (values.count("thetas")) config.thetas = Thetas(values);
    config.await_release = Choose<bool>("release-wait", values["release-wait"].as<std::string>(),
                                        {{"posted", false}, {"awaited", true}});
    if (values.count("max-handovers")) {
      config.variants = micro::HoclBenchmarkConfig::DefaultVariants(static_cast<uint32_t>(
          UnsignedOption(values, "max-handovers", 1, 1024,
                         "the +Hierarchical step already measures no handover")));
    }
    config.locks = Locks(values);
    config.key_space = KeySpace(values, config.locks);
    config.topology = TopologyFrom(values, config.topology);
    results["benchmarks"].push_back(micro::RunHoclBenchmark(config, window(1000, 10000), printed));
  }
  if (all || benchmark == "interference") {
    micro::InterferenceBenchmarkConfig config;
    config.spaces = MemorySpaces(values);
    config.spinners.clear();
    for (uint64_t count : ParseUnsignedList("spinners", values["spinners"].as<std::string>())) {
      config.spinners.push_back(static_cast<uint32_t>(std::min<uint64_t>(count, UINT32_MAX)));
    }
    config.topology = TopologyFrom(values, config.topology);
    results["benchmarks"].push_back(
        micro::RunInterferenceBenchmark(config, window(20, 200), printed));
  }
  if (benchmark == "scaleup") {
    micro::ScaleUpBenchmarkConfig config;
    config.verbs = Verbs(values);
    config.thread_counts.clear();
    for (uint64_t threads :
         ParseUnsignedList("thread-counts", values["thread-counts"].as<std::string>())) {
      if (threads < 1 || threads > 4096) {
        throw ConfigError("--thread-counts: each count must be in [1, 4096]");
      }
      config.thread_counts.push_back(static_cast<uint32_t>(threads));
    }
    config.depths.clear();
    for (uint64_t depth : ParseUnsignedList("depths", values["depths"].as<std::string>())) {
      if (depth < 1 || depth > 256) throw ConfigError("--depths: each depth must be in [1, 256]");
      config.depths.push_back(static_cast<uint32_t>(depth));
    }
    config.per_thread_doorbells =
        Choose<std::vector<bool>>("doorbells", values["doorbells"].as<std::string>(),
                                  {{"qp", {false}}, {"thread", {true}}, {"both", {false, true}}});
    results["benchmarks"].push_back(micro::RunScaleUpBenchmark(config, window(20, 200), printed));
  }
  if (benchmark == "calibration") {
    for (nlohmann::json& document : micro::RunCalibrationBenchmarks(window(20, 200), printed)) {
      results["benchmarks"].push_back(std::move(document));
    }
  }
  if (all || benchmark == "cpu") {
    // Real time of this machine: the NIC profile and topology options do
    // not apply, only the seed (of the buffers, keys and workload).
    micro::CpuCostBenchmarkConfig config;
    config.seed = micro_options.seed;
    if (values.count("keys")) config.keys = UnsignedOption(values, "keys", 1000, uint64_t{1} << 40);
    if (values.count("cache-mib")) {
      config.tree.cache_bytes = UnsignedOption(values, "cache-mib", 1, uint64_t{1} << 20) << 20;
    }
    results["benchmarks"].push_back(micro::RunCpuCostBenchmark(config, printed));
  }
  if (out) {
    WriteJsonFile(*out, results);
    std::cerr << "wrote " << *out << "\n";
  }
  return 0;
}

}  // namespace dmbench::cli
