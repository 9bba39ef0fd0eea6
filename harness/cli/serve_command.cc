#include "harness/cli/serve_command.h"

#include <boost/program_options.hpp>

#include <atomic>
#include <csignal>
#include <iostream>

#include "harness/cli/cli_support.h"
#include "harness/rdma/verbs/memory_server.h"

namespace dmbench::cli {

namespace po = boost::program_options;

namespace {

// Set by SIGINT/SIGTERM; a signal handler can reach nothing but a static.
std::atomic<bool> stop_requested{false};

void RequestStop(int) { stop_requested.store(true); }

}  // namespace

int RunServeCommand(const std::vector<std::string>& arguments) {
  rdma::verbs::ServeOptions serve;
  po::options_description options(
      "usage: dmbench serve [--listen ADDR:PORT] [--memory-mib N] [options]\n"
      "A memory server of a real RDMA cluster: registers its memory with the NIC and serves\n"
      "compute servers ('dmbench run --memory-servers ...') until stopped (SIGINT/SIGTERM).\n"
      "options");
  options.add_options()("help,h", "show this help")(
      "listen", po::value<std::string>(&serve.listen)->default_value(serve.listen),
      "address (of an RDMA device) and port to accept compute servers on")(
      "memory-mib",
      po::value<uint64_t>(&serve.host_memory_mib)->default_value(serve.host_memory_mib),
      "host memory to register, MiB")(
      "on-chip-kib", po::value<uint64_t>(&serve.on_chip_kib)->default_value(serve.on_chip_kib),
      "on-chip lock area: NIC device memory where the NIC has it, else host memory")(
      "device", po::value<std::string>(&serve.device),
      "RDMA device by name (default: the listen address's, or the first active)")(
      "ib-port", po::value<uint32_t>(&serve.ib_port)->default_value(0),
      "device port (0: first active)")(
      "huge-pages", "back the host memory with huge pages (they must be reserved)")(
      "exit-when-idle", "exit once every compute server that connected has disconnected");
  po::variables_map values;
  if (!ParseOptions(arguments, options, values)) return 0;
  serve.huge_pages = values.count("huge-pages") > 0;
  serve.exit_when_idle = values.count("exit-when-idle") > 0;

  rdma::verbs::MemoryServer server(serve);
  std::signal(SIGINT, RequestStop);
  std::signal(SIGTERM, RequestStop);
  std::cerr << "dmbench serve: " << server.Describe() << std::endl;
  server.Serve(stop_requested, &std::cerr);
  std::cerr << "dmbench serve: stopped" << std::endl;
  return 0;
}

}  // namespace dmbench::cli
