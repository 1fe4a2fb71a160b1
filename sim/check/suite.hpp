#pragma once
/// A regression suite (`coinfer check SUITE.yaml`): checks of simulated results against baselines
/// at a tolerance, and timing checks of the ratio of two commands' times against a bound or
/// against samples recorded on the same machine. Parsing checks every key (errors name the suite file and the
/// key path, like `suite.yaml: checks[2].repetitions: expected an integer in [9, 10000], got 5`) and resolves
/// every path against the suite's folder. The format is documented in examples/regression/README.md.
///
///     name: my-gate
///     checks:
///       - name: table1                               # letters, digits, _-.+
///         scenario: scenarios/table1.yaml             # or sweep: FILE (then metrics are RUN/column),
///                                                     # or claims: LEDGER (metrics are ID/ours, ID/held)
///         set: {workload.frames: 4}                   # --set overrides (scenarios only)
///         metrics: ["*/latency_ms.mean", {metric: local/bytes.wlan, tolerance: {relative: 1e-6}}]
///         baseline: baselines/table1.json             # default baselines/<name>.json
///       - name: solver-speed
///         tier: full                                  # quick (default) | full
///         a: ["{build}/bench/x_bench", "--benchmark_filter=^BM_ours$"]
///         b: ["{build}/bench/x_bench", "--benchmark_filter=^BM_reference$"]
///         measure: benchmark                          # wall (default) | cpu | benchmark
///
///     const Suite suite = load_suite("bench/regression.yaml");
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::check {

enum class Tier { Quick, Full };

/// |now - baseline| <= max(absolute, relative * |baseline|) passes.
struct Tolerance {
  double relative = 1e-9;  ///< simulated results are deterministic: only rounding may move them
  double absolute = 0.0;
};

/// One `metrics` entry: `label/key.path` into results.json (no label for a scenario without
/// compare variants), or `run/column` of a sweep's results.csv; `*` stands for every label, run
/// or (in a results.json path) key.
struct MetricSpec {
  std::string pattern;
  Tolerance tolerance;
  std::string path;  ///< where the suite states it: `checks[0].metrics[2]`
};

/// A scenario (or a sweep) run by this binary, its metrics compared with the baseline file.
struct ResultCheck {
  std::string file;     ///< resolved against the suite's folder
  bool sweep = false;   ///< `sweep:` rather than `scenario:`
  bool claims = false;  ///< `claims: LEDGER.yaml`: runs are the claims, by id, each {ours, held, paper, ...}
  std::vector<std::string> overrides;  ///< `set:` as `--set key=value` (value as JSON, a YAML subset)
  int jobs = 1;                        ///< sweep runs at once
  std::vector<MetricSpec> metrics;
};

/// How a timing check times one execution of a command.
enum class Measure {
  Wall,       ///< wall time from start to exit
  Cpu,        ///< user + system CPU time of the command and the children it waited for
  Benchmark,  ///< google-benchmark's CPU time per iteration (one benchmark; JSON format is requested)
};

enum class Better { Lower, Higher };

/// Either two commands timed in one run (`a`, `b`: the sample is time(a) / time(b) per repetition,
/// the two run back to back in a seeded random order), or one command that prints the ratios it
/// measured itself (`command` + `ratios`: name -> regex whose first group is the number).
struct TimingCheck {
  std::vector<std::string> a, b;
  std::vector<std::string> command;
  std::vector<std::pair<std::string, std::string>> ratios;  ///< name, regex (command form)
  Measure measure = Measure::Wall;
  int repetitions = 9;
  int warmup = 1;  ///< unmeasured executions of each command first
  std::uint64_t seed = 1;
  double threshold = 0.10;  ///< practical significance: the median must move by more than this (and
                            ///< samples spread wider than this are `noisy`)
  double alpha = 0.05;      ///< statistical significance of the one-sided test
  Better better = Better::Lower;
  /// `max_ratio` (better: lower) or `min_ratio` (better: higher): a target independent of the
  /// machine, judged instead of a baseline.
  std::optional<double> bound;
  /// `exact: true` (command form, with a bound): its ratios are counts that do not vary from run
  /// to run (instructions under valgrind), not times. One run, no warm-up (unless set), and a
  /// ratio beyond the bound is a regression without a test.
  bool exact = false;
  bool two_commands() const { return !a.empty(); }
};

struct Check {
  std::string name;
  std::string path;  ///< `checks[3]`
  Tier tier = Tier::Quick;
  std::string baseline;       ///< resolved path; empty for a timing check with a bound
  std::string baseline_text;  ///< as written (or defaulted) in the suite, for messages
  std::variant<ResultCheck, TimingCheck> body;
  const ResultCheck* result() const { return std::get_if<ResultCheck>(&body); }
  const TimingCheck* timing() const { return std::get_if<TimingCheck>(&body); }
};

struct Suite {
  std::string name;
  std::string file;
  std::string dir;  ///< the suite's folder: paths and commands are relative to it
  std::vector<Check> checks;
};

/// Checks a suite document; every error is an `InputError(file, key path, ...)`.
Suite parse_suite(const Json& doc, const std::string& file);
/// Reads a suite YAML file and parses it.
Suite load_suite(const std::string& file);

/// `quick` / `full`; anything else throws `InputError("", "--tier", ...)`.
Tier parse_tier(const std::string& text);
std::string tier_name(Tier tier);
std::string measure_name(Measure measure);

/// The checks to run: those named by `only` (whatever their tier; an unknown name throws
/// `InputError("", "--only", "unknown check 'x'; known: ...")`), else those of `tier` (`full`
/// includes the quick ones).
std::vector<const Check*> select_checks(const Suite& suite, Tier tier, const std::vector<std::string>& only);

}  // namespace coinfer::check
