#include "harness/cli/merge_command.h"

#include <boost/program_options.hpp>

#include <iostream>

#include "harness/cli/cli_support.h"
#include "harness/driver/benchmark_runner.h"
#include "harness/driver/result_merge.h"

namespace dmbench::cli {

namespace po = boost::program_options;

int RunMergeCommand(const std::vector<std::string>& arguments) {
  po::options_description options(
      "usage: dmbench merge --out FILE RESULT...\n"
      "Combines the results of every compute server of one real-cluster run (one file each,\n"
      "from 'dmbench run --memory-servers ... --compute-server I --out FILE') into one result;\n"
      "with --verify runs, checks their histories together.\n"
      "options");
  options.add_options()("help,h", "show this help")("out", po::value<std::string>(),
                                                    "the merged result")(
      "results", po::value<std::vector<std::string>>(), "the compute servers' results");
  po::positional_options_description positional;
  positional.add("results", -1);
  po::variables_map values;
  if (!ParseOptions(arguments, options, values, &positional)) return 0;
  if (!values.count("out") || !values.count("results")) {
    std::cerr << "dmbench merge: --out FILE and at least one result are required (see --help)\n";
    return 2;
  }
  const std::vector<std::string>& files = values["results"].as<std::vector<std::string>>();
  const std::string out = values["out"].as<std::string>();
  // Checking --verify histories together can take minutes on a long run.
  CheckOutputFile("--out", out);
  const nlohmann::json merged = driver::MergeResultFiles(files);
  std::ostream& printed = PrintedOutputBeside(out);
  WriteJsonFile(out, merged);
  printed << "merged " << files.size() << " compute servers' results into " << out << "\n"
          << driver::SummaryTable(merged);
  return merged["verify"]["enabled"].get<bool>()
             ? ReportVerification(merged["verify"], "merge", printed)
             : 0;
}

}  // namespace dmbench::cli
