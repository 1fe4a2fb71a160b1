#pragma once
/// Runs a result check's scenario (`coinfer run FILE --out TMP --quiet --set ...`), sweep
/// (`coinfer sweep FILE --out TMP --jobs N`) or claims ledger (`coinfer claims FILE --json TMP`) by executing
/// this same binary (SimGrid runs one simulation per process) in a temporary folder, and reads back what it
/// wrote.
///
///     const RunResults r = run_result_check(*check.result(), self_executable(), tmp.path());
#include <string>

#include "sim/check/result_compare.hpp"
#include "sim/check/suite.hpp"

namespace coinfer::check {

/// The pseudo-run that holds a scenario's `report.json` (`report:` block) in a result check's runs.
inline constexpr const char* kReportRun = "report";

/// The results by compare label (or "" for a single run) in the scenario's compare order, or by
/// sweep run, then, when the scenario has a `report:` block, its report.json as the run
/// `kReportRun`. A run the binary refuses as bad input (exit 2) throws `InputError("", "", its
/// message)`; any other failure throws `Error`.
RunResults run_result_check(const ResultCheck& check, const std::string& coinfer_exe,
                            const std::string& scratch);

/// A sweep's results.csv as flat documents by run: numbers where a cell is one, null for empty
/// cells, strings otherwise.
RunResults sweep_results(const std::string& csv_path);

}  // namespace coinfer::check
