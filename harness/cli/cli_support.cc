#include "harness/cli/cli_support.h"

#include <functional>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/rdma/errors.h"
#include "harness/util/file_output.h"
#include "harness/util/json_object_reader.h"

namespace dmbench::cli {

namespace {

// `parse` returns an element's value and sets how many characters it used;
// an element it does not use whole, or throws on, is an error.
template <typename T, typename Parse>
std::vector<T> ParseList(const std::string& option, const std::string& text, const char* kind,
                         const char* example, Parse parse) {
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
    if (used == 0 || used != element.size()) {
      throw ConfigError("--" + option + ": '" + Printable(element) + "' is not a " + kind +
                        " (expected a comma-separated list such as " + example + ")");
    }
  }
  if (values.empty()) throw ConfigError("--" + option + ": empty list");
  return values;
}

}  // namespace

int RunDescribeCommand(const std::vector<std::string>& arguments, const char* usage,
                       const std::string& argument_name,
                       const std::function<std::string(const std::string&)>& describe) {
  if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h") {
    std::cout << usage;
    return arguments.empty() ? 2 : 0;
  }
  const size_t expected = argument_name.empty() ? 1 : 2;
  if (arguments.size() != expected || arguments[0] != "--describe") {
    // The whole command line: "got '--describe ...'" hid the extra argument.
    std::string given;
    for (const std::string& argument : arguments) given += (given.empty() ? "" : " ") + argument;
    throw ConfigError("expected '--describe" +
                      (argument_name.empty() ? std::string() : " " + argument_name) +
                      "' and nothing else, got '" + given + "'");
  }
  std::cout << describe(argument_name.empty() ? std::string() : arguments[1]);
  return 0;
}

std::vector<uint64_t> ParseUnsignedList(const std::string& option, const std::string& text) {
  return ParseList<uint64_t>(option, text, "non-negative integer", "1,2,3",
                             [](const std::string& s, size_t* used) {
                               // stoull takes "-1" for a huge number.
                               if (s.starts_with('-')) throw std::invalid_argument(s);
                               return std::stoull(s, used);
                             });
}

std::vector<double> ParseNumberList(const std::string& option, const std::string& text) {
  return ParseList<double>(option, text, "non-negative number", "1,2,3",
                           [](const std::string& s, size_t* used) {
                             if (s.starts_with('-')) throw std::invalid_argument(s);
                             return std::stod(s, used);
                           });
}

std::vector<std::string> ParseStringList(const std::string& option, const std::string& text) {
  return ParseList<std::string>(option, text, "non-empty value", "a,b",
                                [](const std::string& s, size_t* used) {
                                  *used = s.size();
                                  return s;
                                });
}

namespace {

bool Unsigned(const boost::program_options::value_semantic* semantic) {
  namespace po = boost::program_options;
  return dynamic_cast<const po::typed_value<uint64_t>*>(semantic) != nullptr ||
         dynamic_cast<const po::typed_value<uint32_t>*>(semantic) != nullptr ||
         dynamic_cast<const po::typed_value<uint16_t>*>(semantic) != nullptr;
}

}  // namespace

void RefuseNegativeUnsigned(const boost::program_options::parsed_options& parsed) {
  for (const boost::program_options::option& option : parsed.options) {
    if (option.unregistered || parsed.description == nullptr) continue;
    const auto* description = parsed.description->find_nothrow(option.string_key, false);
    if (description == nullptr || !Unsigned(description->semantic().get())) continue;
    for (const std::string& value : option.value) {
      const size_t first = value.find_first_not_of(" \t");
      if (first != std::string::npos && value[first] == '-') {
        throw ConfigError("--" + option.string_key + ": must be a non-negative integer, got '" +
                          value + "'");
      }
    }
  }
}

bool ParseOptions(const std::vector<std::string>& arguments,
                  const boost::program_options::options_description& options,
                  boost::program_options::variables_map& values,
                  const boost::program_options::positional_options_description* positional) {
  namespace po = boost::program_options;
  po::command_line_parser parser(arguments);
  parser.options(options);
  if (positional != nullptr) parser.positional(*positional);
  const po::parsed_options parsed = parser.run();
  RefuseNegativeUnsigned(parsed);
  po::store(parsed, values);
  po::notify(values);
  if (values.count("help")) {
    std::cout << options;
    return false;
  }
  return true;
}

int ReportVerification(const nlohmann::json& verify, const std::string& command,
                       std::ostream& printed) {
  printed << "verify: " << verify["operations_checked"] << " operations checked, "
          << verify["violations"] << " violations\n";
  for (const auto& example : verify["examples"]) {
    printed << "  " << example.get<std::string>() << "\n";
  }
  if (verify["violations"].get<uint64_t>() == 0) return 0;
  std::cerr << "dmbench " << command << ": the consistency checker found violations\n";
  return 3;
}

std::ostream& PrintedOutputBeside(const std::optional<std::string>& out) {
  return out && NamesStandardOutput(*out) ? std::cerr : std::cout;
}

void CheckOutputFile(const std::string& option, const std::string& file) {
  try {
    CheckFileWritable(file);
  } catch (const std::runtime_error& error) {
    throw ConfigError(option + ": " + error.what());
  }
}

void WriteJsonFile(const std::string& file, const nlohmann::json& document) {
  WriteFileWhole(file, [&](std::ostream& stream) { stream << document.dump(2) << "\n"; });
}

void WriteHistoryFile(const std::string& file, const indexes::ConsistencyChecker& checker) {
  WriteFileWhole(file, [&](std::ostream& stream) { checker.SaveHistory(stream); });
}

}  // namespace dmbench::cli
