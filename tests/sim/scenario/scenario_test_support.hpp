#pragma once
// Shared by the scenario-layer tests: scratch files for CSV and sweep outputs.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/scratch_dir.hpp"

namespace coinfer::testing {

/// `name` in the running test's own scratch folder, removed if it was there.
inline std::string fresh_path(const std::string& name) {
  auto p = test::scratch_dir() / name;
  std::filesystem::remove_all(p);
  return p.string();
}

inline std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace coinfer::testing
