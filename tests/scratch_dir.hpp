#pragma once
// Scratch folders for tests: every test owns the files it writes, so tests run in parallel (CTest
// runs each TEST_CASE as its own process, several at once) and in any order without sharing a path.
//
//     const test::ScratchDir dir;                       // a folder of its own, removed at scope exit
//     const auto yaml = dir.write("s.yaml", "...");
//     const auto out = test::scratch_dir() / "out";     // the running TEST_CASE's own folder
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

namespace coinfer::test {

/// A fresh, empty folder made by mkdtemp under the system temp folder (a name no other process or
/// test can hold), removed with everything in it on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    auto pattern = (std::filesystem::temp_directory_path() / "coinfer_test_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  /// Writes `text` to `name` inside the folder (creating subfolders); returns the file's path.
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path() const { return path_.string(); }
  const std::filesystem::path& fs_path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// The folder of the TEST_CASE now running (one per process when empty); tests/main.cpp's
/// listener drops it when the test case ends.
inline std::optional<ScratchDir>& current_scratch() {
  static std::optional<ScratchDir> dir;
  return dir;
}

/// The running TEST_CASE's own scratch folder, made on first use and removed when it ends.
inline std::filesystem::path scratch_dir() {
  auto& dir = current_scratch();
  if (!dir) dir.emplace();
  return dir->fs_path();
}

}  // namespace coinfer::test
