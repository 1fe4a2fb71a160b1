#pragma once
/// A claims ledger: a paper's quantitative claims written once as data, each with the scenario or
/// sweep that produces ours and the rule that says whether it holds (`coinfer claims`,
/// docs/guide/claims.md). Parsing checks every key; evaluation is a pure function of the runs.
///
///     system: AdaLearner
///     claims:
///       - id: lenet-onebit8-speedup                 # letters, digits, _-.+
///         claim: "1-bit AdaLearner, 8 workers: 3.37x faster than local (LeNet)"
///         source: "[AdaLearner §3.6.3, Fig. 3.12]"
///         scenario: adalearner-lenet.yaml           # or scenarios: [...], or sweep: FILE
///         ours: {row: speedup onebit-8 over local}  # report rows (glob) of the scenarios
///         paper: 3.37                               # held when within tolerance_pct (default 15)
///         cause: "..."                              # optional: why it fails, and the evidence
///       - id: fig3-adaptive-near-best
///         sweep: pipeline-fig3-mu.yaml
///         ours: {metric: effective_accuracy, better: higher, group_by: [platform.networks[0].rate_mbps],
///                subject: {scheduler: adaptive-compression}, reduce: min}   # gain % over the best other row
///         holds: {at_least: -1}                     # a bound instead of a number
///
///     const Ledger l = load_ledger("scenarios/adalearner/claims.yaml");
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/check/result_compare.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer::check {

enum class Reduce { Only, Max, Min, Mean };

/// One cell filter of a sweep's rows: the column equals the value (a number, or a cell's text),
/// or lies in [low, high] when the value is a two-number range.
struct RowFilter {
  std::string column;
  Json value;
};

/// What "ours" is. From report rows (scenarios): the `ours` of every row whose name matches the
/// glob `row`, reduced. From a sweep's rows: the column `metric` of the rows passing `where`,
/// reduced; or, with `subject`, per group of `group_by` columns, the subject row's gain in percent
/// over the best row of `against` (every other row of the group when empty), reduced over groups:
/// 100 (1 - subject / best) when lower is better, 100 (subject / best - 1) when higher is; with
/// `as: difference`, best - subject or subject - best, in the metric's unit (positive: the subject
/// is better); with `as: ratio`, subject / best (a speedup when the subject is the slower one). A
/// group without a subject row or another row is left out (`count` says how many were judged).
struct OursSpec {
  std::string row;  ///< report-row glob (scenario claims)
  std::string metric;
  std::vector<RowFilter> where;
  std::vector<std::string> group_by;
  std::vector<RowFilter> subject;
  std::vector<RowFilter> against;
  bool lower_is_better = true;
  std::string of;  ///< sweep claims without a subject: share_pct / remainder_pct divide by this column
  enum class As { GainPct, Difference, Ratio, SharePct, RemainderPct } as = As::GainPct;
  Reduce reduce = Reduce::Only;
};

/// When a claim holds: ours within `tolerance_pct` of the paper's number, or ours on the right
/// side of a bound the paper states (`at_least`, `at_most`).
struct HoldsSpec {
  std::optional<double> paper;
  double tolerance_pct = 15.0;
  std::optional<double> at_least, at_most;
};

struct Claim {
  std::string id;
  std::string claim;               ///< the paper's statement
  std::string source;              ///< section, figure or table
  std::string cause;               ///< optional: why it fails here, with the run that shows it
  std::vector<std::string> files;  ///< resolved; several scenarios, or one sweep
  bool sweep = false;
  OursSpec ours;
  HoldsSpec holds;
  std::string path;  ///< `claims[3]`
};

struct Ledger {
  std::string system;
  std::string file;
  std::vector<Claim> claims;
};

/// Checks a ledger document; every error is an `InputError(file, key path, ...)`.
Ledger parse_ledger(const Json& doc, const std::string& file);
/// Reads a ledger YAML file and parses it; paths resolve against the file's folder.
Ledger load_ledger(const std::string& file);

/// The claim's verdict. `ours` is NaN when nothing matched (then it does not hold).
struct ClaimResult {
  double ours = 0.0;
  bool held = false;
  int count = 0;  ///< report rows, sweep rows or groups the value was reduced over
};

/// Evaluates `claim` on its runs: one RunResults per file, in the claim's order (scenario runs
/// with the `report` pseudo-run, or sweep rows). Throws `InputError(ledger file, claim path, ...)`
/// when a named row, column or subject is absent from every run.
ClaimResult evaluate_claim(const Claim& claim, const std::vector<RunResults>& runs, const std::string& file);

/// The paper's side as text: "3.37 +-15%", ">= -1", "<= 5", ">= 0 and <= 10".
std::string paper_text(const HoldsSpec& holds);

}  // namespace coinfer::check
