#include "harness/cli/cli_support.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "harness/rdma/errors.h"

namespace dmbench::cli {

namespace {

template <typename T, typename Parse>
std::vector<T> ParseList(const std::string& option, const std::string& text, const char* kind,
                         Parse parse) {
  std::vector<T> values;
  std::stringstream stream(text);
  std::string element;
  while (std::getline(stream, element, ',')) {
    size_t used = 0;
    try {
      values.push_back(parse(element, &used));
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != element.size() || element.starts_with('-')) {
      throw ConfigError("--" + option + ": '" + element + "' is not a non-negative " + kind +
                        " (expected a comma-separated list such as 1,2,3)");
    }
  }
  if (values.empty()) throw ConfigError("--" + option + ": empty list");
  return values;
}

}  // namespace

std::vector<uint64_t> ParseUnsignedList(const std::string& option, const std::string& text) {
  return ParseList<uint64_t>(option, text, "integer", [](const std::string& s, size_t* used) {
    return std::stoull(s, used);
  });
}

std::vector<double> ParseNumberList(const std::string& option, const std::string& text) {
  return ParseList<double>(option, text, "number",
                           [](const std::string& s, size_t* used) { return std::stod(s, used); });
}

bool ParseOptions(const std::vector<std::string>& arguments,
                  const boost::program_options::options_description& options,
                  boost::program_options::variables_map& values) {
  namespace po = boost::program_options;
  po::store(po::command_line_parser(arguments).options(options).run(), values);
  po::notify(values);
  if (values.count("help")) {
    std::cout << options;
    return false;
  }
  return true;
}

void WriteJsonFile(const std::string& file, const nlohmann::json& document) {
  const std::filesystem::path path(file);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  const std::string temporary = file + ".partial";
  {
    std::ofstream stream(temporary);
    stream << document.dump(2) << "\n";
    if (!stream) throw std::runtime_error("cannot write " + temporary);
  }
  // Renamed into place only when complete: a crash never leaves a truncated
  // result that looks finished.
  std::filesystem::rename(temporary, path);
}

void WriteHistoryFile(const std::string& file, const indexes::ConsistencyChecker& checker) {
  const std::string temporary = file + ".partial";
  {
    std::ofstream stream(temporary, std::ios::binary);
    checker.SaveHistory(stream);
    if (!stream) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, file);
}

}  // namespace dmbench::cli
