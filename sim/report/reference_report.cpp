#include "sim/report/reference_report.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/report/share.hpp"
#include "sim/report/table.hpp"

namespace coinfer {
namespace {

void check_label(const Json& row, const char* key, const std::string& path,
                 const std::vector<std::string>& labels) {
  if (!json_find(row, key, path)) return;
  const auto label = json_string(row, key, path);
  for (const auto& l : labels)
    if (l == label) return;
  throw InputError("", join_path(path, key),
                   fmt::format("unknown run '{}'; compare labels: {}", label, fmt::join(labels, ", ")));
}

double metric_or_throw(const Json& results, const std::string& metric, const std::string& run,
                       const std::string& path) {
  const Json* v = metric_at(results, metric);
  if (!v)
    throw InputError("", join_path(path, "metric"), fmt::format("run '{}' has no metric '{}'", run, metric));
  return v->get<double>();
}

double ours(const Json& row, const std::map<std::string, Json>& results, const std::string& path) {
  const auto run = json_string(row, "run", path);
  const auto metric = json_string(row, "metric", path);
  const double v = metric_or_throw(results.at(run), metric, run, path);
  const auto as = json_string_or(row, "as", path, "value");
  if (as == "value") return v * json_number_or(row, "scale", path, 1.0);
  if (as == "share_pct" || as == "remainder_pct") {
    const auto of = json_string(row, "of", path);
    const double whole = metric_or_throw(results.at(run), of, run, join_path(path, "of"));
    return share_pct(v * json_number_or(row, "scale", path, 1.0), whole, as == "remainder_pct");
  }
  const auto base_run = json_string(row, "baseline", path);
  const double base = metric_or_throw(results.at(base_run), metric, base_run, path);
  if (base == 0.0) return std::nan("");
  return as == "ratio" ? v / base : 100.0 * (1.0 - v / base);
}

std::string number(double v) {
  if (std::isnan(v)) return "-";
  return std::abs(v) >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.2f}", v);
}

}  // namespace

void check_report(const Json& report, const std::vector<std::string>& labels) {
  json_reject_unknown_keys(report, "report", {"title", "source", "rows"});
  if (labels.empty()) throw InputError("", "report", "a report reads compare runs; add a compare list");
  const Json& rows = json_at(report, "rows", "report");
  if (!rows.is_array() || rows.empty())
    throw InputError("", "report.rows", "expected a non-empty list of rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto path = index_path("report.rows", i);
    const Json& row = rows[i];
    json_reject_unknown_keys(row, path, {"name", "run", "metric", "baseline", "of", "as", "scale", "paper"});
    json_string(row, "name", path);
    json_string(row, "metric", path);
    json_string(row, "run", path);
    check_label(row, "run", path, labels);
    check_label(row, "baseline", path, labels);
    const auto as =
        json_find(row, "as", path)
            ? json_enum(row, "as", path, {"value", "reduction_pct", "ratio", "share_pct", "remainder_pct"})
            : std::string("value");
    const bool of_run = as == "share_pct" || as == "remainder_pct";
    if (of_run) {
      json_string(row, "of", path);
      if (json_find(row, "baseline", path))
        throw InputError(
            "", join_path(path, "baseline"),
            fmt::format("'as: {}' divides by another metric of the same run ('of'), not a baseline run", as));
    } else if (json_find(row, "of", path)) {
      throw InputError("", join_path(path, "of"), kOfNeedsShare);
    }
    if (as != "value" && !of_run && !json_find(row, "baseline", path))
      throw InputError("", join_path(path, "baseline"), fmt::format("'as: {}' needs a baseline run", as));
    json_number_or(row, "scale", path, 1.0, -1e300, 1e300);
    const Json* paper = json_find(row, "paper", path);
    if (paper && !paper->is_number() && !paper->is_string())
      throw InputError("", join_path(path, "paper"), "expected a number or a text");
  }
}

const Json* metric_at(const Json& results, const std::string& dotted_path) {
  // Keys may hold dots themselves (stage labels such as `features.4.project_bn`): at each level the
  // longest run of the remaining segments that names a key is taken.
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const auto dot = dotted_path.find('.', start);
    parts.push_back(dotted_path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const Json* v = &results;
  for (std::size_t i = 0; i < parts.size();) {
    if (!v->is_object()) return nullptr;
    std::size_t taken = 0;
    std::string key;
    for (std::size_t j = parts.size(); j > i && taken == 0; --j) {
      key = parts[i];
      for (std::size_t k = i + 1; k < j; ++k) key += "." + parts[k];
      if (v->contains(key)) taken = j - i;
    }
    if (taken == 0) return nullptr;
    v = &(*v)[key];
    i += taken;
  }
  return v->is_number() ? v : nullptr;
}

Json report_json(const Json& report, const std::map<std::string, Json>& results) {
  Json out{{"title", report.value("title", "report")},
           {"source", report.value("source", "")},
           {"rows", Json::array()}};
  const Json& rows = report.at("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Json& row = rows[i];
    const double v = ours(row, results, index_path("report.rows", i));
    const Json paper = row.value("paper", Json());
    Json gap;  // null unless the paper gives a non-zero number
    if (paper.is_number() && paper.get<double>() != 0.0 && !std::isnan(v))
      gap = 100.0 * (v - paper.get<double>()) / paper.get<double>();
    out["rows"].push_back({{"name", row.at("name")},
                           {"run", row.at("run")},
                           {"ours", std::isnan(v) ? Json() : Json(v)},
                           {"paper", paper},
                           {"gap_pct", gap}});
  }
  return out;
}

std::string render_report(const Json& report, const std::map<std::string, Json>& results) {
  const Json table = report_json(report, results);
  TextTable t({"", "ours", "paper", "gap"}, {false, true, true, true});
  for (const Json& row : table["rows"]) {
    const Json& paper = row["paper"];
    t.add_row({row["name"].get<std::string>(),
               number(row["ours"].is_number() ? row["ours"].get<double>() : std::nan("")),
               paper.is_number()   ? number(paper.get<double>())
               : paper.is_string() ? paper.get<std::string>()
                                   : "-",
               row["gap_pct"].is_number() ? fmt::format("{:+.1f}%", row["gap_pct"].get<double>()) : "-"});
  }
  std::string out = fmt::format("{}\n", table["title"].get<std::string>());
  if (report.contains("source"))
    out += fmt::format("paper values: {}\n", report["source"].get<std::string>());
  return out + t.str();
}

}  // namespace coinfer
