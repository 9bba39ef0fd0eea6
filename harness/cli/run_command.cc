#include "harness/cli/run_command.h"

#include <boost/program_options.hpp>

#include <iostream>

#include "harness/cli/cli_support.h"
#include "harness/driver/benchmark_runner.h"
#include "harness/driver/run_config.h"

namespace dmbench::cli {

namespace po = boost::program_options;

int RunRunCommand(const std::vector<std::string>& arguments) {
  po::options_description options(
      "usage: dmbench run --config FILE [--set path=value]... [--out FILE]\n"
      "Runs one benchmark: bulkload, warm-up, measured window; prints a summary table.\n"
      "options");
  options.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                    "run config (JSON), e.g. configs/runs/*.json")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a field: --set index.combine=false --set workload.theta=0.9")(
      "out", po::value<std::string>(), "write the result JSON here (results/SCHEMA.md)")(
      "verify", "validate every operation with the consistency checker (same as run.verify)")(
      "quiet,q", "no progress lines on stderr");
  po::variables_map values;
  if (!ParseOptions(arguments, options, values)) return 0;
  if (!values.count("config")) {
    std::cerr << "dmbench run: --config FILE is required (see --help)\n";
    return 2;
  }
  std::vector<std::string> sets;
  if (values.count("set")) sets = values["set"].as<std::vector<std::string>>();
  if (values.count("verify")) sets.push_back("run.verify=true");
  const driver::RunConfig config = driver::LoadRunConfig(values["config"].as<std::string>(), sets);

  const driver::BenchmarkOutcome outcome =
      driver::RunBenchmark(config, values.count("quiet") ? nullptr : &std::cerr);
  if (values.count("out")) {
    WriteJsonFile(values["out"].as<std::string>(), outcome.result);
    if (!values.count("quiet")) std::cerr << "wrote " << values["out"].as<std::string>() << "\n";
  }
  std::cout << config.name << " (" << config.index_type << ": " << config.index.Describe() << ")\n"
            << driver::SummaryTable(outcome.result);
  const auto& wall = outcome.result["wall_clock"];
  std::cout << "simulator: " << wall["index_operations_per_wall_second"].get<double>() / 1e6
            << " M index operations per wall-clock second on one core ("
            << wall["events_per_wall_second"].get<double>() / 1e6 << " M events/s)\n";
  if (config.verify) {
    const auto& verify = outcome.result["verify"];
    std::cout << "verify: " << verify["operations_checked"] << " operations checked, "
              << verify["violations"] << " violations\n";
    for (const auto& example : verify["examples"])
      std::cout << "  " << example.get<std::string>() << "\n";
    if (!outcome.verified_ok) {
      std::cerr << "dmbench run: the consistency checker found violations\n";
      return 3;
    }
  }
  return 0;
}

}  // namespace dmbench::cli
