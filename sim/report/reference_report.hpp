#pragma once
/// A scenario's `report:` block: our numbers next to a paper's, for runs of a `compare` list.
/// Each row reads one metric (a dotted path into a run's results.json, e.g. `latency_ms.mean`,
/// `stages.conv1_1.bytes`) from one run, optionally relative to a baseline run, scales it, and
/// prints it beside the paper's value (a number, or text such as ">= 22.6" for figures that only
/// state bounds) and the gap (ours - paper) / paper when the paper value is a number. The paper
/// value is a reference input with its source; ours is always computed.
///
///     report:
///       title: MoDNN Table 1
///       source: [MoDNN Table 1]
///       rows:
///         - {name: 2 workers execution ms, run: bodp-2, metric: latency_ms.mean, paper: 8509}
///         - {name: FC6 k=2 s=0.9, run: mscc-2, baseline: fc1d-2, metric: stages.fc6.bytes,
///            as: reduction_pct, paper: ">= 22.6"}
///
/// `as`: value (default) | reduction_pct (100 (1 - ours / baseline)) | ratio (ours / baseline) |
/// share_pct (100 ours / of) | remainder_pct (100 (1 - ours / of)), where `of` is another metric of
/// the same run (`{metric: busy_s.k40, scale: 1000, of: latency_ms.mean, as: remainder_pct}`: the
/// share of the latency the K40 does not compute).
/// `scale`: multiplies a `value`, or ours before dividing by `of` (e.g. 0.0009765625 for bytes -> KB).
#include <map>
#include <string>

#include "sim/core/json_access.hpp"

namespace coinfer {

/// Checks the block; `labels` are the compare labels. Throws `InputError("", "report.rows[2].run",
/// "unknown run 'x'; compare labels: a, b")` and similar.
void check_report(const Json& report, const std::vector<std::string>& labels);

/// The metric at a dotted path; nullptr when absent or not a number. A key may hold dots (stage
/// labels such as `features.4.project_bn`): at each level the longest matching key is taken.
const Json* metric_at(const Json& results, const std::string& dotted_path);

/// The report as data: `{"title", "source", "rows": [{"name", "run", "ours", "paper", "gap_pct"}]}`
/// (`gap_pct` null unless the paper value is a non-zero number); `coinfer run` writes it to
/// `report.json` for notebooks.
Json report_json(const Json& report, const std::map<std::string, Json>& results_by_label);

/// The report as text (title, source, then a table of name | ours | paper | gap). Throws
/// `InputError("", "report.rows[i].metric", ...)` when a run's results lack the metric.
std::string render_report(const Json& report, const std::map<std::string, Json>& results_by_label);

}  // namespace coinfer
