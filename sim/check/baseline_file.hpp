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
/// of other commands is not comparable) and `machines`: for each machine it was recorded on (the
/// key `this_machine()` gives: CPU model, ISA, CPU count), its ratios with their samples. A ratio
/// is only ever compared with samples of the machine that runs the check: ratios of two commands
/// cancel most of a machine's speed, not all of it.
///
///     "machines": {
///       "Intel(R) Xeon(R) Processor (avx512f, 2 CPUs)": {
///         "a/b": {"median": 0.2003, "samples": [0.2001, ...]}
///       }
///     }
///
/// An older file's `recorded_on` + `ratios` read as the one machine it names.
///
#include <string>
#include <utility>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::check {

using RatioSamples = std::vector<std::pair<std::string, std::vector<double>>>;  // name, samples

/// One machine's timing samples.
struct MachineSamples {
  std::string machine;  ///< `this_machine()` where they were recorded
  RatioSamples ratios;
  const std::vector<double>* ratio(const std::string& name) const;
};

struct BaselineFile {
  std::string check;
  std::string path;                                   // where it was read from (empty: not read)
  std::vector<std::pair<std::string, Json>> metrics;  // result check: name, value
  Json setup;                                         // timing check: measure, commands
  std::vector<MachineSamples> machines;               // timing check: per machine
  const Json* metric(const std::string& name) const;
  const MachineSamples* machine(const std::string& key) const;
  /// Adds `samples`, replacing those of the same machine.
  void put_machine(MachineSamples samples);
  bool timing() const { return !setup.is_null(); }
};

inline constexpr const char* kBaselineFormat = "coinfer-check-baseline/1";

/// The file's text: pretty, one metric or ratio per line, numbers in shortest round-trip form
/// (timing samples to 6 significant digits).
std::string baseline_text(const BaselineFile& baseline);

/// Reads and checks a baseline file; it must belong to `check`. Errors are
/// `InputError(path, "metrics.x", ...)`; a missing file is `InputError(path, "", "not found ...")`.
BaselineFile read_baseline(const std::string& path, const std::string& check);

/// The key of this machine's timing baselines, from /proc/cpuinfo: the CPU model, the widest
/// SIMD instruction set it has (avx512f, avx2, avx, sse4_2; sve, asimd) and the CPU count, e.g.
/// "Intel(R) Xeon(R) Processor (avx512f, 2 CPUs)".
std::string this_machine();

/// The widest SIMD instruction set named in a /proc/cpuinfo `flags` or `Features` line
/// ("avx512f", "avx2", ...), "unknown ISA" when none.
std::string isa_of(const std::string& cpu_flags);

}  // namespace coinfer::check
