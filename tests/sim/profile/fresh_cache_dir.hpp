#pragma once
// An empty profile cache directory of its own for a test, under the system's temp directory.
#include <filesystem>
#include <string>

namespace coinfer::test {

/// `<tmp>/coinfer_profiler_test_<name>`, emptied.
inline std::string fresh_cache_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("coinfer_profiler_test_" + name);
  std::filesystem::remove_all(dir);
  return dir.string();
}

}  // namespace coinfer::test
