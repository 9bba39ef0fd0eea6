#include "harness/cli/micro_command.h"

#include <boost/program_options.hpp>

#include <iostream>
#include <optional>

#include "harness/cli/cli_support.h"
#include "harness/cli/micro_benchmark_options.h"
#include "harness/driver/benchmark_runner.h"
#include "harness/driver/build_info.h"
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
    "usage: dmbench micro\n"
    "       {verbs|atomics|spinlock|hocl|interference|scaleup|calibration|cpu|all} [options]\n"
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

}  // namespace

int RunMicroCommand(const std::vector<std::string>& arguments) {
  const po::options_description options = MicroBenchmarkOptions();

  if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h") {
    std::cout << kMicroUsage << "\n" << options;
    return arguments.empty() ? 2 : 0;
  }
  const std::string benchmark = arguments[0];
  RequireBenchmarkName(benchmark);

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

  nlohmann::json results = {
      {"schema_version", driver::kResultSchemaVersion},
      {"kind", "micro"},
      {"tool", driver::ToolJson()},
      {"backend", {{"type", "sim"}, {"nic_profile", micro_options.profile.ToJson()}}},
      {"substrate", micro_options.substrate.ToJson()},
      {"seed", micro_options.seed},
      {"benchmarks", nlohmann::json::array()}};
  const bool all = benchmark == "all";
  if (all || benchmark == "verbs") {
    const auto config = VerbConfigFrom(values);
    results["benchmarks"].push_back(micro::RunVerbBenchmark(config, window(20, 200), printed));
  }
  if (all || benchmark == "atomics") {
    const auto config = AtomicConfigFrom(values);
    results["benchmarks"].push_back(micro::RunAtomicBenchmark(config, window(20, 200), printed));
  }
  if (all || benchmark == "spinlock") {
    const auto config = SpinlockConfigFrom(values);
    results["benchmarks"].push_back(
        micro::RunSpinlockBenchmark(config, window(1000, 10000), printed));
  }
  if (all || benchmark == "hocl") {
    const auto config = HoclConfigFrom(values);
    results["benchmarks"].push_back(micro::RunHoclBenchmark(config, window(1000, 10000), printed));
  }
  if (all || benchmark == "interference") {
    const auto config = InterferenceConfigFrom(values);
    results["benchmarks"].push_back(
        micro::RunInterferenceBenchmark(config, window(20, 200), printed));
  }
  if (benchmark == "scaleup") {
    const auto config = ScaleUpConfigFrom(values);
    results["benchmarks"].push_back(micro::RunScaleUpBenchmark(config, window(20, 200), printed));
  }
  if (benchmark == "calibration") {
    for (nlohmann::json& document : micro::RunCalibrationBenchmarks(window(20, 200), printed)) {
      results["benchmarks"].push_back(std::move(document));
    }
  }
  if (all || benchmark == "cpu") {
    const auto config = CpuCostConfigFrom(values, micro_options.seed);
    results["benchmarks"].push_back(micro::RunCpuCostBenchmark(config, printed));
  }
  if (out) {
    WriteJsonFile(*out, results);
    std::cerr << "wrote " << *out << "\n";
  }
  return 0;
}

}  // namespace dmbench::cli
