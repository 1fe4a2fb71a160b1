// `coinfer summarize RESULTS.csv [--by COL,...] [--metrics COL,...] [--ci 95] [--csv OUT.csv]`: a
// sweep's results (or any CSV with a header) grouped by the --by columns, each metric summarised
// per group over its rows (the seeds, when the other keys are in --by): count, mean, sample
// standard deviation and the Student-t confidence interval of the mean (sim/scenario/summarize.hpp).
#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/report/table.hpp"
#include "sim/scenario/summarize.hpp"

namespace coinfer::cli {
namespace {

struct SummarizeCliOptions {
  std::string file;
  SummaryOptions summary;
  std::string csv;
};

std::string shown(double v) { return std::isnan(v) ? "-" : fmt::format("{:.6g}", v); }

void run_summarize(const SummarizeCliOptions& o) {
  const Summary s = summarize_results_file(o.file, o.summary);
  std::vector<std::string> head = s.by;
  std::vector<bool> right(s.by.size(), false);
  for (const auto& h : {std::string("metric"), std::string("n"), std::string("mean"), std::string("sd"),
                        ci_head(s.ci_percent, "low"), ci_head(s.ci_percent, "high")}) {
    head.push_back(h);
    right.push_back(h != "metric");
  }
  TextTable table(head, right);
  for (const auto& r : s.rows) {
    std::vector<std::string> cells = r.group;
    cells.push_back(r.metric);
    cells.push_back(std::to_string(r.n));
    for (const double v : {r.mean, r.sd, r.ci_low, r.ci_high}) cells.push_back(shown(v));
    table.add_row(std::move(cells));
  }
  std::cout << table.str();
  if (!o.csv.empty()) {
    write_file_atomic(o.csv, summary_csv(s));
    std::cout << fmt::format("wrote {} ({} rows)\n", o.csv, s.rows.size());
  }
}

}  // namespace

void add_summarize_command(CLI::App& app) {
  auto o = std::make_shared<SummarizeCliOptions>();
  auto* cmd = app.add_subcommand(
      "summarize", "Mean, sd and confidence interval of a results CSV's metrics, grouped by columns");
  cmd->add_option("file", o->file, "Results CSV (a sweep's results.csv)")->required();
  cmd->add_option("--by", o->summary.by, "Columns to group by, comma-separated (none: all rows)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--metrics", o->summary.metrics,
                  "Columns to summarise, comma-separated (default: every numeric column but run, seed, "
                  "point_hash and --by)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--ci", o->summary.ci_percent, "Confidence level of the interval, percent")
      ->capture_default_str();
  cmd->add_option("--csv", o->csv, "Also write the summary as CSV");
  cmd->callback([o] { run_summarize(*o); });
}

}  // namespace coinfer::cli
