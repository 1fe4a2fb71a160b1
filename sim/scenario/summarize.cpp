#include "sim/scenario/summarize.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/core/error.hpp"
#include "sim/metrics/student_t.hpp"
#include "sim/scenario/csv_table.hpp"
#include "sim/scenario/results_csv.hpp"

namespace coinfer {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool is_number(const std::string& s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
}

std::size_t column(const CsvHeader& h, const std::string& name, const std::string& option,
                   const std::string& file) {
  if (const auto c = h.optional(name)) return *c;
  throw InputError(file, option,
                   fmt::format("no column '{}'; the columns are {}", name, fmt::join(h.names(), ", ")));
}

// Every column but run, seed, point_hash and `by` whose non-empty cells are all numbers (at least one).
std::vector<std::size_t> numeric_columns(const CsvTable& t, const std::vector<std::size_t>& by) {
  std::vector<std::size_t> out;
  for (std::size_t c = 0; c < t.header.cells.size(); ++c) {
    const std::string& name = t.header.cells[c];
    if (name == "run" || name == "seed" || name == "point_hash" || std::count(by.begin(), by.end(), c))
      continue;
    bool any = false, all = true;
    for (const auto& row : t.rows) {
      if (row.cells[c].empty()) continue;
      any = true;
      all = all && is_number(row.cells[c]);
    }
    if (any && all) out.push_back(c);
  }
  return out;
}

SummaryRow summarize_values(std::vector<std::string> group, std::string metric, const std::vector<double>& xs,
                            double ci_percent) {
  SummaryRow r{std::move(group), std::move(metric), xs.size(), kNaN, kNaN, kNaN, kNaN};
  if (xs.empty()) return r;
  const auto n = static_cast<double>(xs.size());
  double sum = 0.0;
  for (const double x : xs) sum += x;
  r.mean = sum / n;
  if (xs.size() < 2) return r;
  double ss = 0.0;
  for (const double x : xs) ss += (x - r.mean) * (x - r.mean);
  r.sd = std::sqrt(ss / (n - 1.0));
  const double half = student_t_quantile(0.5 + ci_percent / 200.0, n - 1.0) * r.sd / std::sqrt(n);
  r.ci_low = r.mean - half;
  r.ci_high = r.mean + half;
  return r;
}

std::string number_cell(double v) { return std::isnan(v) ? "" : fmt::format("{}", v); }

}  // namespace

std::string ci_head(double ci_percent, const char* side) {
  return fmt::format("ci{:g}_{}", ci_percent, side);
}

Summary summarize_results(const std::string& text, const std::string& file, const SummaryOptions& options) {
  if (!(options.ci_percent > 0.0 && options.ci_percent < 100.0))
    throw InputError("", "--ci", fmt::format("expected a level in (0, 100), got {:g}", options.ci_percent));
  const CsvTable table = parse_csv_table(text, file, "rows");
  const CsvHeader header(table.header, file);
  std::vector<std::size_t> by, metrics;
  for (const auto& name : options.by) by.push_back(column(header, name, "--by", file));
  for (const auto& name : options.metrics) {
    metrics.push_back(column(header, name, "--metrics", file));
    if (std::count(options.by.begin(), options.by.end(), name))
      throw InputError(file, "--metrics", fmt::format("'{}' is also a --by column", name));
  }
  const bool named = !metrics.empty();
  if (!named) metrics = numeric_columns(table, by);
  if (metrics.empty())
    throw InputError(file, "--metrics",
                     "no numeric column to summarize besides run, seed, point_hash and --by");

  // Rows of each group, groups in order of first appearance.
  std::vector<std::vector<std::string>> groups;
  std::map<std::vector<std::string>, std::vector<const CsvRecord*>> rows_of;
  for (const auto& row : table.rows) {
    std::vector<std::string> key;
    for (const auto c : by) key.push_back(row.cells[c]);
    auto [it, fresh] = rows_of.try_emplace(key);
    if (fresh) groups.push_back(key);
    it->second.push_back(&row);
  }
  Summary out{options.by, options.ci_percent, {}};
  for (const auto& key : groups)
    for (const auto c : metrics) {
      std::vector<double> xs;
      for (const CsvRecord* row : rows_of.at(key)) {
        if (row->cells[c].empty()) continue;
        xs.push_back(
            CsvCells(*row, table.header, file)
                .number(c, -HUGE_VAL, HUGE_VAL, named ? "a number (a --metrics column)" : "a number"));
      }
      out.rows.push_back(summarize_values(key, table.header.cells[c], xs, options.ci_percent));
    }
  return out;
}

Summary summarize_results_file(const std::string& path, const SummaryOptions& options) {
  return summarize_results(read_data_file(path, "a results CSV file"), path, options);
}

std::string summary_csv(const Summary& summary) {
  std::vector<std::string> head = summary.by;
  for (const char* h : {"metric", "n", "mean", "sd"}) head.emplace_back(h);
  head.push_back(ci_head(summary.ci_percent, "low"));
  head.push_back(ci_head(summary.ci_percent, "high"));
  std::string out = csv_line(head);
  for (const auto& r : summary.rows) {
    std::vector<std::string> cells = r.group;
    cells.push_back(r.metric);
    cells.push_back(std::to_string(r.n));
    for (const double v : {r.mean, r.sd, r.ci_low, r.ci_high}) cells.push_back(number_cell(v));
    out += csv_line(cells);
  }
  return out;
}

}  // namespace coinfer
