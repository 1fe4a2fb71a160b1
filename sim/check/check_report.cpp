#include "sim/check/check_report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/report/table.hpp"

namespace coinfer::check {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (auto end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::string verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::Ok:
      return "ok";
    case Verdict::Regression:
      return "REGRESSION";
    case Verdict::Improved:
      return "improved";
    case Verdict::New:
      return "new";
    case Verdict::Noisy:
      return "noisy";
  }
  return "ok";
}

std::string rows_table(const std::vector<CheckRow>& rows) {
  TextTable t({"check", "metric", "baseline", "now", "change", "verdict", "detail"},
              {false, false, true, true, true, false, false});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0 && rows[i].check != rows[i - 1].check) t.add_separator();
    const auto& r = rows[i];
    t.add_row({r.check, r.metric, r.baseline, r.now, r.change, verdict_name(r.verdict), r.detail});
  }
  // No trailing blanks where the last cells are empty.
  std::string out;
  for (const auto& line : split_lines(t.str())) out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  return out;
}

std::string row_line(const CheckRow& r) {
  auto line = fmt::format("{}  {}  baseline {}  now {}  change {}  {}", r.check, r.metric, r.baseline, r.now,
                          r.change, verdict_name(r.verdict));
  return r.detail.empty() ? line : line + "  (" + r.detail + ")";
}

std::string change_percent(double base, double now) {
  if (now == base) return "0%";
  if (base == 0.0) return "-";
  const double pct = (now - base) / std::fabs(base) * 100.0;
  return std::fabs(pct) >= 0.01 ? fmt::format("{:+.2f}%", pct) : fmt::format("{:+.2g}%", pct);
}

}  // namespace coinfer::check
