#pragma once
/// Runs a timing check's commands and returns its ratio samples. Two commands (`a`, `b`) run back
/// to back in each repetition, which first drawn from a generator seeded by the check's `seed`
/// (google/benchmark's random interleaving: a slow phase of the machine hits both alike), after
/// `warmup` unmeasured runs of each; the sample is time(a) / time(b). A `command` check runs its
/// command `repetitions` times and reads each ratio from its output.
///
/// In every argument `{coinfer}` becomes this binary, `{build}` its folder and `{tmp}` a fresh
/// empty folder for that one execution (removed after it). Commands run in the suite's folder.
///
///     const auto samples = measure_timing(timing, {exe, suite.dir, tmp.path()}, progress);
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/check/suite.hpp"

namespace coinfer::check {

struct TimingContext {
  std::string coinfer_exe;  ///< `{coinfer}`
  std::string cwd;          ///< the suite's folder
  std::string scratch;      ///< where logs and `{tmp}` folders go
};

/// Ratio name (`a/b` for two commands) -> samples, one per repetition. A command that fails, a
/// `benchmark` measure without exactly one benchmark in the output or a ratio the output lacks
/// throws `Error` naming the command and why.
std::vector<std::pair<std::string, std::vector<double>>> measure_timing(
    const TimingCheck& timing, const TimingContext& context,
    const std::function<void(const std::string&)>& progress = {});

/// `{coinfer}`, `{build}` and `{tmp}` replaced in every argument.
std::vector<std::string> expand_argv(const std::vector<std::string>& argv, const std::string& coinfer_exe,
                                     const std::string& tmp);

/// Seconds per iteration (CPU time) of the one benchmark in google-benchmark's JSON output;
/// throws `Error` when the text is not that JSON or holds no or several benchmarks.
double benchmark_seconds(const std::string& json_text);

/// The number in the first group of `pattern`'s first match in `text`; throws `Error` when
/// nothing matches or the group is not a number.
double reported_ratio(const std::string& text, const std::string& pattern);

/// The order of the two commands in each repetition: true = a first; a goes first in half of them
/// (one more when odd), shuffled deterministically by `seed`.
std::vector<bool> interleaving(std::uint64_t seed, int repetitions);

}  // namespace coinfer::check
