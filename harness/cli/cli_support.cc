#include "harness/cli/cli_support.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/rdma/errors.h"

namespace dmbench::cli {

std::string ConfigDirectory() {
  if (const char* directory = std::getenv("DMBENCH_CONFIG_DIR")) return directory;
  return std::string(DMBENCH_SOURCE_DIR) + "/configs";
}

rdma::sim::NicProfile LoadNicProfile(const std::string& name_or_path) {
  const bool is_path =
      name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json");
  if (is_path) return rdma::sim::NicProfile::Load(name_or_path);
  const std::filesystem::path directory = std::filesystem::path(ConfigDirectory()) / "nic";
  const std::filesystem::path file = directory / (name_or_path + ".json");
  if (!std::filesystem::exists(file)) {
    std::string available;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
      if (entry.path().extension() == ".json") {
        available += (available.empty() ? "" : ", ") + entry.path().stem().string();
      }
    }
    throw ConfigError("unknown NIC profile '" + name_or_path + "' (available in " +
                      directory.string() + ": " + (available.empty() ? "none" : available) + ")");
  }
  return rdma::sim::NicProfile::Load(file.string());
}

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

}  // namespace dmbench::cli
