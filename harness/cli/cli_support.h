// Helpers shared by the dmbench subcommands.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json_fwd.hpp>

#include "indexes/common/consistency_checker.h"

namespace dmbench::cli {

// Parses a subcommand's options (and `positional` arguments, when given);
// returns false after printing --help.
bool ParseOptions(
    const std::vector<std::string>& arguments,
    const boost::program_options::options_description& options,
    boost::program_options::variables_map& values,
    const boost::program_options::positional_options_description* positional = nullptr);

// boost::program_options reads "-1" into an unsigned option as its largest
// value (lexical_cast wraps around), so `dmbench fuzz --cases -1` began a
// campaign without end and `micro --threads -1` said "18446744073709551615
// is out of range". ParseOptions refuses, as a ConfigError naming the
// option, a value that begins with '-' for an option of an unsigned type;
// a command that parses its own options calls this on what it parsed.
void RefuseNegativeUnsigned(const boost::program_options::parsed_options& parsed);

// A subcommand whose one job is `--describe [ARGUMENT]`, printing the
// document `describe` makes (of ARGUMENT when `argument_name` is not empty,
// e.g. "NAME|FILE"). No arguments print `usage` and return 2; --help prints
// it and returns 0; anything else is a ConfigError saying what is expected.
int RunDescribeCommand(const std::vector<std::string>& arguments, const char* usage,
                       const std::string& argument_name,
                       const std::function<std::string(const std::string&)>& describe);

// "8,16,32" -> {8, 16, 32}; ConfigError names `option` and the bad element.
std::vector<uint64_t> ParseUnsignedList(const std::string& option, const std::string& text);
std::vector<double> ParseNumberList(const std::string& option, const std::string& text);
// "a:1,b:2" -> {"a:1", "b:2"}; an empty element is an error.
std::vector<std::string> ParseStringList(const std::string& option, const std::string& text);

// Prints a result's "verify" section (the checker ran) to `printed`;
// returns 3, saying so on stderr, when it found violations, else 0:
// `command`'s exit status.
int ReportVerification(const nlohmann::json& verify, const std::string& command,
                       std::ostream& printed);

// Where a command that writes its result to `out` (its --out, if given)
// prints its table: standard output, or standard error when `out` is
// standard output itself (`--out /dev/stdout`), so that the JSON arrives
// alone. Call it before the result is written: a regular file that
// standard output was redirected to is replaced by the write.
std::ostream& PrintedOutputBeside(const std::optional<std::string>& out);

// Refuses, as bad input (ConfigError, exit status 2), an output file the
// command could not write (util/file_output.h's CheckFileWritable), before
// the command runs: `option` names where the path came from.
void CheckOutputFile(const std::string& option, const std::string& file);

// Writes `document` to `file` (pretty-printed), whole or not at all
// (util/file_output.h); throws on failure, naming the file and the reason,
// so no result is silently lost or cut short.
void WriteJsonFile(const std::string& file, const nlohmann::json& document);

// Writes a checker's history (ConsistencyChecker::SaveHistory) the same way.
void WriteHistoryFile(const std::string& file, const indexes::ConsistencyChecker& checker);

}  // namespace dmbench::cli
