// dmbench: benchmark harness for range indexes on disaggregated memory.
#include <boost/program_options/errors.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "harness/cli/config_command.h"
#include "harness/cli/fuzz_command.h"
#include "harness/cli/merge_command.h"
#include "harness/cli/micro_command.h"
#include "harness/cli/nic_command.h"
#include "harness/cli/run_command.h"
#include "harness/cli/serve_command.h"
#include "harness/cli/sweep_command.h"
#include "harness/rdma/errors.h"
#include "harness/util/huge_page_heap.h"

namespace {

constexpr const char* kUsage =
    "usage: dmbench <command> [options]\n"
    "commands:\n"
    "  run     one benchmark from a config file: bulkload, warm-up, measured window\n"
    "  sweep   every point of an experiment (a paper figure), one result file each\n"
    "  micro   substrate microbenchmarks on the simulated fabric (Sherman Figs. 2, 3)\n"
    "  nic     the calibration document of a simulated-fabric NIC profile\n"
    "  config  the reference of every run-config field\n"
    "  serve   a memory server of a real RDMA cluster\n"
    "  merge   one result from the results of a real cluster's compute servers\n"
    "  fuzz    fuzz every input dmbench reads (a seeded campaign, cases per input kind)\n"
    "Run 'dmbench <command> --help' for a command's options.\n";

int RunCommand(const std::string& command, const std::vector<std::string>& rest) {
  if (command == "run") return dmbench::cli::RunRunCommand(rest);
  if (command == "sweep") return dmbench::cli::RunSweepCommand(rest);
  if (command == "micro") return dmbench::cli::RunMicroCommand(rest);
  if (command == "nic") return dmbench::cli::RunNicCommand(rest);
  if (command == "config") return dmbench::cli::RunConfigCommand(rest);
  if (command == "serve") return dmbench::cli::RunServeCommand(rest);
  if (command == "merge") return dmbench::cli::RunMergeCommand(rest);
  if (command == "fuzz") return dmbench::cli::RunFuzzCommand(rest);
  std::cerr << "dmbench: unknown command '" << command
            << "' (allowed: run, sweep, micro, nic, config, serve, merge, fuzz)\n"
            << kUsage;
  return 2;
}

// A command's status, unless what it printed did not all reach standard
// output: `dmbench config --describe > FILE` on a full disk would otherwise
// leave a document cut short and exit 0.
int StatusWithStandardOutput(int status, const std::string& command) {
  std::cout.flush();
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout) return status;
  const int error = errno;
  std::cerr << "dmbench " << command << ": error: cannot write standard output"
            << (error != 0 ? std::string(": ") + std::strerror(error) : std::string()) << "\n";
  return status == 0 ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) {
  dmbench::ReexecWithHugePageHeap(argv);
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h") {
    std::cout << kUsage;
    return arguments.empty() ? 2 : 0;
  }
  const std::string command = arguments[0];
  const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
  try {
    return StatusWithStandardOutput(RunCommand(command, rest), command);
  } catch (const dmbench::ConfigError& error) {
    std::cerr << "dmbench " << command << ": " << error.what() << "\n";
    return 2;
  } catch (const boost::program_options::error& error) {
    std::cerr << "dmbench " << command << ": " << error.what() << " (see 'dmbench " << command
              << " --help')\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "dmbench " << command << ": error: " << error.what() << "\n";
    return 1;
  }
}
