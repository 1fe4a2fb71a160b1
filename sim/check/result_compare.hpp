#pragma once
/// Result checks: a metric pattern expanded over a run's results and compared with the baseline
/// at the metric's tolerance. Pure functions over JSON documents (the runner produces them).
///
///     RunResults r{{{"local", local_json}, {"bodp-2", bodp_json}}, false};
///     const auto cmp = compare_results(check, r, &baseline);   // rows for the table, values for --update
#include <string>
#include <utility>
#include <vector>

#include "sim/check/baseline_file.hpp"
#include "sim/check/check_report.hpp"
#include "sim/check/suite.hpp"

namespace coinfer::check {

/// The results of one result check's run, in run order: a scenario without compare variants is
/// one document labelled ""; with variants, one per label; a sweep, one per run (label = the run
/// index, the document a flat object of results.csv's columns).
struct RunResults {
  std::vector<std::pair<std::string, Json>> runs;
  bool flat = false;  ///< sweep rows: a key is a whole column name (`latency_ms.mean`), not a path
};

struct MetricValue {
  std::string name;  ///< concrete: `bodp-2/latency_ms.mean`, `3/energy_j.total`
  Json value;        ///< a number, string, boolean or null
};

/// The values a pattern names, in run order then key order. `*` stands for every label (run)
/// and, in a results.json path, every key of an object (`bytes.*`). A concrete label or key that
/// is absent, or a path ending on an object or array, throws `InputError("", spec.path, ...)`
/// listing what there is; an absent key under a `*` skips that branch.
std::vector<MetricValue> expand_metric(const MetricSpec& spec, const RunResults& results);

/// `{label, key}`: with labelled results (compare variants, sweep runs) the label is what precedes
/// the first '/'; a single run's key path may itself hold '/' (link names: `bytes.wlan/phone/up`).
std::pair<std::string, std::string> split_metric(const std::string& name, bool labelled);

/// Whether a concrete metric name is one the pattern stands for.
bool metric_matches(const std::string& pattern, const std::string& name, bool labelled, bool flat);

struct ResultComparison {
  std::vector<CheckRow> rows;
  std::vector<std::pair<std::string, Json>> values;  ///< every metric found now (for --update)
};

/// Compares every metric of `check` (a result check) with `baseline` (null: none yet, every row
/// `new`). A number passes when |now - base| <= max(absolute, relative * |base|); other values
/// must be equal. A baseline metric the pattern names but the results lack is a regression
/// (`now` = `missing`); a concrete metric absent from both throws `InputError("", spec.path, ...)`.
/// A baseline string where the results hold a number is bad input, not a moved result: it throws
/// `InputError(baseline->path, "metrics.NAME", ...)`.
ResultComparison compare_results(const Check& check, const RunResults& results, const BaselineFile* baseline);

/// A number in a table cell: up to 10 significant digits.
std::string value_text(const Json& value);

}  // namespace coinfer::check
