#pragma once
/// A check's baseline file, written by `coinfer check --update` and read back by every later run.
/// The layout is made for code review: one metric (or one timing ratio with its samples) per
/// line, so the diff of an update shows exactly which numbers moved.
///
///     {
///       "format": "coinfer-check-baseline/1",
///       "check": "quickstart",
///       "metrics": {
///         "local/latency_ms.mean": 15808.999999999998,
///         "remote-wifi/latency_ms.mean": 437.76650485436894
///       }
///     }
///
/// A timing check's file holds `setup` (the measure and commands it was recorded with: a ratio
/// of other commands is not comparable), `recorded_on` (the CPU; informative) and `ratios`:
/// `"a/b": {"median": 0.2003, "samples": [0.2001, ...]}`.
///
///     write_file_atomic(path, baseline_text(b));
///     const BaselineFile old = read_baseline(path, "quickstart");
#include <string>
#include <utility>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::check {

struct BaselineFile {
  std::string check;
  std::vector<std::pair<std::string, Json>> metrics;                // result check: name, value
  std::vector<std::pair<std::string, std::vector<double>>> ratios;  // timing check: name, samples
  Json setup;                                                       // timing check: measure, commands
  std::string recorded_on;                                          // timing check: CPU model
  const Json* metric(const std::string& name) const;
  const std::vector<double>* ratio(const std::string& name) const;
};

inline constexpr const char* kBaselineFormat = "coinfer-check-baseline/1";

/// The file's text: pretty, one metric or ratio per line, numbers in shortest round-trip form
/// (timing samples to 6 significant digits).
std::string baseline_text(const BaselineFile& baseline);

/// Reads and checks a baseline file; it must belong to `check`. Errors are
/// `InputError(path, "metrics.x", ...)`; a missing file is `InputError(path, "", "not found ...")`.
BaselineFile read_baseline(const std::string& path, const std::string& check);

/// "Intel(R) Xeon(R) ... (2 CPUs)" from /proc/cpuinfo, for `recorded_on`.
std::string this_machine();

}  // namespace coinfer::check
