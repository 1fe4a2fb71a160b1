#include "sim/check/result_runner.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "sim/check/process.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"
#include "sim/scenario/scenario.hpp"

namespace coinfer::check {
namespace {

namespace fs = std::filesystem;

Json cell_value(const std::string& cell) {
  if (cell.empty()) return nullptr;
  double v = 0.0;
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
  if (ec == std::errc() && end == cell.data() + cell.size() && std::isfinite(v)) return v;
  return cell;
}

// The child's error line without its `coinfer: error: ` prefix.
std::string child_error(const ProcessResult& r) {
  auto why = r.why();
  for (const std::string prefix : {"coinfer: error: ", "coinfer: internal error: "})
    if (why.starts_with(prefix)) return why.substr(prefix.size());
  return why;
}

void run_child(const std::vector<std::string>& args, const std::string& scratch) {
  const auto r = run_process(args, ".", (fs::path(scratch) / "child").string());
  if (r.exit_code == 2) throw InputError("", "", child_error(r));
  if (!r.ok()) throw Error(fmt::format("'{} {}' failed: {}", args[1], args[2], child_error(r)));
}

}  // namespace

RunResults sweep_results(const std::string& csv_path) {
  const auto records = parse_csv(read_whole_file(csv_path), csv_path);
  if (records.empty()) throw Error(csv_path + ": no header");
  const auto& header = records.front().cells;
  RunResults out;
  out.flat = true;
  for (std::size_t i = 1; i < records.size(); ++i) {
    Json row = Json::object();
    const auto& cells = records[i].cells;
    for (std::size_t c = 0; c < header.size() && c < cells.size(); ++c) row[header[c]] = cell_value(cells[c]);
    out.runs.emplace_back(cells.empty() ? "" : cells.front(), std::move(row));
  }
  return out;
}

RunResults run_result_check(const ResultCheck& check, const std::string& coinfer_exe,
                            const std::string& scratch) {
  const auto file = fs::absolute(check.file).string();
  const auto out = (fs::path(scratch) / "out").string();
  if (check.claims) {
    const auto json = (fs::path(scratch) / "claims.json").string();
    run_child({coinfer_exe, "claims", file, "--json", json, "--jobs", std::to_string(check.jobs)}, scratch);
    RunResults results;
    for (const Json& c : read_json_file(json)) results.runs.emplace_back(c.at("id").get<std::string>(), c);
    return results;
  }
  if (check.sweep) {
    run_child({coinfer_exe, "sweep", file, "--out", out, "--jobs", std::to_string(check.jobs)}, scratch);
    return sweep_results(out + "/results.csv");
  }
  std::vector<std::string> args{coinfer_exe, "run", file, "--out", out, "--quiet"};
  for (const auto& o : check.overrides) {
    args.push_back("--set");
    args.push_back(o);
  }
  run_child(args, scratch);
  const ScenarioSpec spec = load_scenario(file, check.overrides);
  RunResults results;
  if (spec.compare.empty()) {
    results.runs.emplace_back("", read_json_file(out + "/results.json"));
  } else {
    for (const auto& entry : spec.compare)
      results.runs.emplace_back(entry.label, read_json_file(out + "/" + entry.label + "/results.json"));
  }
  // A `report:` block's table (title, source, rows of name / ours / paper) as one more run, so that
  // a check can hold the numbers the docs render: metrics `report/rows.*.ours` and the like.
  const auto report = fs::path(out) / "report.json";
  if (fs::exists(report)) {
    for (const auto& [label, doc] : results.runs)
      if (label == kReportRun)
        throw InputError("", "compare", fmt::format("label '{}' is reserved for the report's rows", label));
    results.runs.emplace_back(kReportRun, read_json_file(report.string()));
  }
  return results;
}

}  // namespace coinfer::check
