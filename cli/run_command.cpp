// `coinfer run SCENARIO [--set key=value ...] [--out DIR] [--trace FILE] [--frames-csv] [--quiet]`.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cli/builtin_registries.hpp"
#include "cli/commands.hpp"
#include "cli/run_outputs.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/metrics/metrics.hpp"
#include "sim/replay/simulate.hpp"
#include "sim/report/reference_report.hpp"
#include "sim/report/table.hpp"
#include "sim/scenario/scenario.hpp"

namespace coinfer::cli {
namespace {

struct RunOptions {
  std::string file;
  std::vector<std::string> overrides;
  std::string out;
  std::string trace;
  bool frames_csv = false;
  bool quiet = false;
};

std::string ms(const Json& v) { return v.is_number() ? fmt::format("{:.1f}", v.get<double>()) : "-"; }

std::string joules(const Json& energy, const std::string& device) {
  return energy.contains(device) ? fmt::format("{:.3f}", energy[device].get<double>()) : "-";
}

double total(const Json& obj) {
  double sum = 0;
  for (const auto& [k, v] : obj.items()) sum += v.is_number() ? v.get<double>() : 0.0;
  return sum;
}

void add_summary_row(TextTable& t, const std::string& label, const Json& r, const std::string& source) {
  t.add_row({label, r["partitioner"].get<std::string>(),
             fmt::format("{}/{}", r["completed"].get<int>(), r["frames"].get<int>()),
             ms(r["latency_ms"]["mean"]), ms(r["latency_ms"]["p95"]), ms(r["analytic_latency_ms"]),
             r["throughput_fps"].is_number() ? fmt::format("{:.2f}", r["throughput_fps"].get<double>()) : "-",
             joules(r["energy_j"], source), fmt::format("{:.0f}", total(r["bytes"]))});
}

TextTable summary_table(const std::string& source) {
  return TextTable({"run", "partitioner", "done", "latency ms", "p95 ms", "analytic ms", "fps",
                    "energy J (" + source + ")", "link bytes"},
                   {false, false, true, true, true, true, true, true, true});
}

std::string source_of(const ScenarioRun& run, const ScenarioSpec& spec) {
  if (!spec.source.empty()) return spec.source;
  return run.simulation.devices.empty() ? "" : run.simulation.devices.front().device;
}

// A run's warnings (results.json keeps them) go to stderr, with --quiet too: they are not the
// success output --quiet silences.
void print_warnings(const std::string& label, const Json& results) {
  for (const auto& w : results.value("warnings", Json::array()))
    std::cerr << "warning: " << (label.empty() ? "" : label + ": ") << w.get<std::string>() << "\n";
}

// `--trace out/t.json` with variants: one trace per variant, `out/t.<label>.json`.
std::string variant_trace_file(const std::string& trace, const std::string& label) {
  if (trace.empty()) return "";
  const std::filesystem::path p(trace);
  return (p.parent_path() / (p.stem().string() + "." + label + p.extension().string())).string();
}

// Per-stage computing / transmission time and bytes of every run (outputs.stages).
std::string stage_table(const std::vector<std::pair<std::string, Json>>& rows) {
  std::vector<std::string> header{"stage"}, order;
  for (const auto& [label, r] : rows) {
    for (const auto* what : {"comp ms", "xfer ms", "KB"}) header.push_back(label + " " + what);
    for (const auto& s : r.value("stage_order", Json::array()))
      if (std::find(order.begin(), order.end(), s.get<std::string>()) == order.end())
        order.push_back(s.get<std::string>());
  }
  TextTable t(header, std::vector<bool>(header.size(), true));
  for (const auto& stage : order) {
    std::vector<std::string> cells{stage};
    for (const auto& [label, r] : rows) {
      const Json* s = r.contains("stages") && r["stages"].contains(stage) ? &r["stages"][stage] : nullptr;
      cells.push_back(s ? fmt::format("{:.1f}", (*s)["compute_ms"].get<double>()) : "-");
      cells.push_back(s ? fmt::format("{:.1f}", (*s)["transfer_ms"].get<double>()) : "-");
      cells.push_back(s ? fmt::format("{:.1f}", (*s)["bytes"].get<double>() / 1024.0) : "-");
    }
    t.add_row(std::move(cells));
  }
  return "per stage (computing time without delivery, transmission time without wake-ups, bytes sent):\n" +
         t.str();
}

// Runs every variant in its own child process. Each writes into a staging folder; only when all
// have succeeded do their folders replace `out_dir/<label>`, so a failing variant leaves no results
// of earlier variants looking like a whole comparison.
void run_compare(const ScenarioSpec& spec, const RunOptions& opts, const std::string& out_dir,
                 const PartitionerRegistry& partitioners, const SchedulerRegistry& schedulers) {
  std::vector<ScenarioSpec> variants;
  for (const auto& entry : spec.compare) {  // every variant's keys are checked before any runs
    variants.push_back(compare_variant(spec, entry));
    if (!opts.trace.empty()) variants.back().trace = true;
  }
  const auto staging = make_staging_dir(out_dir);
  std::string source;
  std::vector<std::pair<std::string, Json>> rows;
  std::vector<std::string> traces;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const auto& label = spec.compare[i].label;
    const auto trace = variant_trace_file(opts.trace, label);
    std::string text;
    try {
      // SimGrid runs once per process: every variant gets its own child.
      text = run_in_child_process([&] {
        const auto run = execute_scenario(variants[i], partitioners, schedulers);
        write_run_outputs(variants[i], run, staging + "/" + label,
                          trace.empty() ? "" : staging + "/" + label + "/trace.json", opts.frames_csv);
        return Json{{"results", run.results}, {"source", source_of(run, variants[i])}}.dump();
      });
    } catch (const InputError& e) {
      std::filesystem::remove_all(staging);
      rethrow_for_variant(e, spec, label);
    } catch (const Error& e) {
      std::filesystem::remove_all(staging);
      throw Error(fmt::format("{}: compare variant '{}': {}", spec.file, label, e.what()));
    }
    const Json answer = Json::parse(text);
    source = answer["source"].get<std::string>();
    rows.emplace_back(label, answer["results"]);
    if (!trace.empty()) traces.push_back(trace);
  }
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const auto& label = spec.compare[i].label;
    if (!opts.trace.empty()) move_file(staging + "/" + label + "/trace.json", traces[i]);
    publish_dir(staging + "/" + label, out_dir + "/" + label);
  }
  std::filesystem::remove_all(staging);
  for (const auto& [label, r] : rows) print_warnings(label, r);
  std::map<std::string, Json> by_label(rows.begin(), rows.end());
  std::string report_text;
  if (!spec.report.is_null()) {
    try {
      write_file_atomic(out_dir + "/report.json", report_json(spec.report, by_label).dump(2) + "\n");
      report_text = render_report(spec.report, by_label);
    } catch (const InputError& e) {
      throw e.with_file(spec.file);
    }
  }
  if (opts.quiet) return;
  auto table = summary_table(source);
  for (const auto& [label, r] : rows) add_summary_row(table, label, r, source);
  std::cout << fmt::format("scenario {} (model {}, platform {}, {} host profile)\n", spec.name,
                           rows.front().second["model"].get<std::string>(),
                           rows.front().second["platform"].get<std::string>(),
                           rows.front().second["host_profile"].get<std::string>())
            << table.str();
  if (spec.stages) std::cout << stage_table(rows);
  std::cout << report_text
            << fmt::format("results: {}/<run>/results.json{}\n", out_dir,
                           report_text.empty() ? "" : ", report.json");
  for (const auto& t : traces) std::cout << "trace: " << t << "\n";
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto opts = std::make_shared<RunOptions>();
  auto* run = app.add_subcommand("run", "Simulate a scenario YAML and write results.json");
  run->add_option("scenario", opts->file, "Scenario YAML file")->required();
  run->add_option("--set", opts->overrides,
                  "Override a scenario key: --set partitioner.name=local (repeatable; applies to every "
                  "compare variant, after the variant's own set)");
  run->add_option("--out,-o", opts->out, "Output directory (default out/<scenario name>)");
  run->add_option("--trace", opts->trace,
                  "Record and write a Chrome trace JSON (Perfetto) to this file; with compare variants, "
                  "one per variant: FILE's name with .<label> before the extension");
  run->add_flag("--frames-csv", opts->frames_csv, "Also write frames.csv (one row per frame)");
  run->add_flag("--quiet,-q", opts->quiet,
                "Print nothing on stdout on success (warnings still go to stderr)");
  run->callback([opts] {
    const ScenarioSpec spec = load_scenario(opts->file, opts->overrides);
    const auto partitioners = builtin_partitioners();
    const auto schedulers = builtin_schedulers();
    const auto out_dir = opts->out.empty() ? "out/" + spec.name : opts->out;
    if (!spec.compare.empty()) return run_compare(spec, *opts, out_dir, partitioners, schedulers);
    ScenarioSpec single = spec;
    if (!opts->trace.empty()) single.trace = true;  // `--trace FILE` records the trace it writes
    const auto result = execute_scenario(single, partitioners, schedulers);
    write_run_outputs(single, result, out_dir, opts->trace, opts->frames_csv);
    print_warnings("", result.results);
    if (opts->quiet) return;
    const auto source = source_of(result, spec);
    auto table = summary_table(source);
    add_summary_row(table, spec.name, result.results, source);
    std::cout << table.str() << fmt::format("results: {}/results.json\n", out_dir);
    if (single.trace)
      std::cout << "trace: " << (opts->trace.empty() ? out_dir + "/trace.json" : opts->trace) << "\n";
  });
}

}  // namespace coinfer::cli
