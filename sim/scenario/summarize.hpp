#pragma once
/// Means over seeds: a results CSV (a sweep's `results.csv`, or any CSV with a header) grouped by
/// some columns, each metric column summarised per group by its count, mean, sample standard
/// deviation and a Student-t confidence interval of the mean (`coinfer summarize`).
///
///     SummaryOptions o{.by = {"variant", "workload.rate_fps"}, .metrics = {"latency_ms.mean"}};
///     Summary s = summarize_results_file("out/offload/results.csv", o);
///     // s.rows[i]: group {"local", "1"}, metric "latency_ms.mean", n 2, mean, sd, ci_low, ci_high
#include <cstddef>
#include <string>
#include <vector>

namespace coinfer {

struct SummaryOptions {
  std::vector<std::string> by;       ///< grouping columns (none: every row in one group)
  std::vector<std::string> metrics;  ///< empty: every numeric column but run, seed, point_hash and `by`
  double ci_percent = 95.0;          ///< the interval's level, in (0, 100)
};

struct SummaryRow {
  std::vector<std::string> group;  ///< the `by` columns' values, in their order
  std::string metric;
  std::size_t n = 0;                   ///< non-empty cells of the metric in the group
  double mean = 0.0;                   ///< NaN when n = 0
  double sd = 0.0;                     ///< sample standard deviation (n - 1); NaN when n < 2
  double ci_low = 0.0, ci_high = 0.0;  ///< mean -+ t(n - 1) x sd / sqrt(n); NaN when n < 2
};

struct Summary {
  std::vector<std::string> by;
  double ci_percent = 95.0;
  std::vector<SummaryRow> rows;  ///< groups in order of first appearance, metrics in column order
};

/// Summarises CSV `text`; `file` names it in errors. InputError: a `by` or `metrics` column that is
/// not in the header (key `--by` / `--metrics`), a metric named in both, a level outside (0, 100)
/// (`--ci`), a cell of a named metric that is not a number (its line and column), no metric column.
Summary summarize_results(const std::string& text, const std::string& file, const SummaryOptions& options);
/// The same for the file at `path`.
Summary summarize_results_file(const std::string& path, const SummaryOptions& options);

/// The summary as CSV: the `by` columns, metric, n, mean, sd, ci<level>_low, ci<level>_high (numbers in
/// shortest round-trip form, empty where NaN).
std::string summary_csv(const Summary& summary);
/// The column heads of the interval, e.g. "ci95_low".
std::string ci_head(double ci_percent, const char* side);

}  // namespace coinfer
