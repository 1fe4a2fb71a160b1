#pragma once
// Shared by the scenario-layer tests: scratch files for CSV and sweep outputs.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

namespace coinfer::testing {

/// `name` in a per-process scratch folder, removed if it was there.
inline std::string fresh_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("coinfer_scenario_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto p = dir / name;
  std::filesystem::remove_all(p);
  return p.string();
}

inline std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace coinfer::testing
