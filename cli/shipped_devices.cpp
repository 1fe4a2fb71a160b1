#include "cli/shipped_devices.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "sim/calibration/calibration_json.hpp"
#include "sim/core/error.hpp"

namespace coinfer::cli {
namespace {

namespace fs = std::filesystem;

// `start`, then each parent, holding platforms/calibration; empty when none does.
fs::path find_upwards(fs::path start) {
  std::error_code ec;
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    const auto candidate = dir / "platforms" / "calibration";
    if (fs::is_directory(candidate, ec)) return candidate;
    if (dir == dir.parent_path()) break;
  }
  return {};
}

}  // namespace

std::string shipped_calibration_dir() {
  if (const char* env = std::getenv("COINFER_CALIBRATION_DIR"); env != nullptr && *env != '\0') return env;
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    if (auto dir = find_upwards(exe.parent_path()); !dir.empty()) return dir.string();
  if (auto dir = find_upwards(fs::current_path(ec)); !dir.empty()) return dir.string();
  throw InputError("", "",
                   "cannot find the shipped platforms/calibration folder; set COINFER_CALIBRATION_DIR");
}

std::vector<std::string> shipped_device_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(shipped_calibration_dir()))
    if (e.is_regular_file() && e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

DeviceCalibration load_device(const std::string& name_or_file, const std::string& option) {
  if (name_or_file.find('/') != std::string::npos || name_or_file.ends_with(".json")) {
    if (!fs::is_regular_file(name_or_file))
      throw InputError("", option, fmt::format("file '{}' not found", name_or_file));
    return load_calibration_file(name_or_file);
  }
  const auto names = shipped_device_names();
  if (std::find(names.begin(), names.end(), name_or_file) == names.end())
    throw InputError("", option,
                     fmt::format("unknown device '{}'; known: {} (or a calibration .json file)", name_or_file,
                                 fmt::join(names, ", ")));
  return load_calibration_file((fs::path(shipped_calibration_dir()) / (name_or_file + ".json")).string());
}

}  // namespace coinfer::cli
