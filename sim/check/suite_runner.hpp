#pragma once
/// Runs the selected checks of a suite: reads every baseline first (a missing result baseline is
/// an error unless updating), runs each check in a temporary folder removed afterwards, compares,
/// and with `update` writes the new baselines once every check has run (each file whole,
/// atomically).
///
/// A timing ratio is compared only with samples of this machine (`machine`): those of the
/// suite's baseline file, else those this machine recorded itself in `machine_dir` on an earlier
/// run. With neither, its row is `new` and this run's samples are recorded in `machine_dir`
/// (`<machine_dir>/<suite name>/<check>.json`, the baseline format), so the next run on this
/// machine compares with them; `--update` records into the suite's baseline file instead.
///
///     const auto outcome = run_checks(suite, select_checks(suite, Tier::Quick, {}),
///                                     {.coinfer_exe = self_executable()});
///     if (outcome.count(Verdict::Regression) > 0) ...
#include <functional>
#include <string>
#include <vector>

#include "sim/check/check_report.hpp"
#include "sim/check/suite.hpp"

namespace coinfer::check {

struct SuiteOptions {
  std::string coinfer_exe;  ///< runs the scenarios and sweeps; `{coinfer}` in commands
  bool update = false;      ///< record the baselines instead of requiring them
  std::string machine;      ///< the key of this machine's timing samples (`this_machine()`)
  std::string machine_dir;  ///< where this machine records its own timing baselines (empty: nowhere)
  std::function<void(const std::string&)> progress;  ///< one line per step (the CLI prints it on stderr)
};

struct CheckOutcome {
  const Check* check = nullptr;
  std::vector<CheckRow> rows;
  double time_s = 0.0;
};

struct SuiteOutcome {
  std::vector<CheckOutcome> checks;
  std::vector<std::string> written;   ///< baseline files written (with update)
  std::vector<std::string> recorded;  ///< this machine's own timing baselines written in `machine_dir`
  std::size_t count(Verdict verdict) const;
  std::vector<CheckRow> rows() const;
};

/// Errors: a missing or invalid baseline, a metric the results do not have, a scenario the binary
/// refuses: `InputError` naming the suite (or baseline) file and the key path; a command or run
/// that fails otherwise: `Error` naming the check.
SuiteOutcome run_checks(const Suite& suite, const std::vector<const Check*>& checks,
                        const SuiteOptions& options);

}  // namespace coinfer::check
