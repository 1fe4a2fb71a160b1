// `coinfer check SUITE.yaml [--update] [--junit FILE] [--only NAME] [--tier quick|full]
// [--machine-baselines DIR]`: a regression suite's simulated results and timing ratios against its
// committed baselines (timings against this machine's only, or against their bounds).
// Exit 0: no regression (`new` and `noisy` rows included); 1: a regression; 2: bad input (suite,
// baseline, scenario) or a failed run.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/builtin_registries.hpp"
#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "sim/check/baseline_file.hpp"
#include "sim/check/claims.hpp"
#include "sim/check/junit_writer.hpp"
#include "sim/check/process.hpp"
#include "sim/check/suite.hpp"
#include "sim/check/suite_runner.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/sweep.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace coinfer::cli {
namespace {

using namespace coinfer::check;

struct CheckOptions {
  std::string file;
  bool update = false;
  std::string junit;
  std::vector<std::string> only;
  std::string tier = "quick";
  std::string machine_dir;  // empty: check-baselines/ next to the binary (the build tree)
};

// Every selected scenario is checked as `coinfer run` would (keys, --set overrides, every compare
// variant, partitioner and scheduler parameters) and every sweep parsed, before anything runs.
void preflight(const Suite& suite, const std::vector<const Check*>& checks) {
  const auto partitioners = builtin_partitioners();
  const auto schedulers = builtin_schedulers();
  for (const Check* c : checks) {
    const auto* r = c->result();
    if (r == nullptr) continue;
    try {
      if (r->sweep) {
        (void)parse_sweep(read_yaml_file(r->file), r->file);
        continue;
      }
      if (r->claims) {
        (void)load_ledger(r->file);
        continue;
      }
      const ScenarioSpec spec = load_scenario(r->file, r->overrides);
      if (spec.compare.empty()) check_scenario_components(spec, partitioners, schedulers);
      for (const auto& entry : spec.compare)
        check_scenario_components(compare_variant(spec, entry), partitioners, schedulers);
    } catch (const InputError& e) {
      throw InputError(suite.file,
                       join_path(c->path, r->sweep    ? "sweep"
                                          : r->claims ? "claims"
                                                      : "scenario"),
                       e.what());
    }
  }
}

std::string summary(const SuiteOutcome& o, double time_s) {
  return fmt::format("{} checks, {} rows: {} ok, {} REGRESSION, {} improved, {} new, {} noisy ({:.1f} s)\n",
                     o.checks.size(), o.rows().size(), o.count(Verdict::Ok), o.count(Verdict::Regression),
                     o.count(Verdict::Improved), o.count(Verdict::New), o.count(Verdict::Noisy), time_s);
}

// What the rows that fail nothing mean, said once below the table.
std::string notes(const SuiteOutcome& o, const SuiteOptions& options) {
  std::string out;
  if (const auto n = o.count(Verdict::Noisy))
    out += fmt::format(
        "NOISY: {} timing ratio{} not judged: this run's samples spread wider than the threshold, or their "
        "median lies beyond a bound the sign test does not confirm. This does not fail the run; rerun on "
        "a quieter machine to judge {}.\n",
        n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
  for (const auto& path : o.recorded)
    out += fmt::format("timing baseline of this machine ({}) recorded: {}\n", options.machine, path);
  return out;
}

void run_check_command(const CheckOptions& opts) {
  const Suite suite = load_suite(opts.file);
  const auto tier = parse_tier(opts.tier);
  const auto checks = select_checks(suite, tier, opts.only);
  if (checks.empty())
    throw InputError(suite.file, "--tier", fmt::format("no check of tier {} (try --tier full)", opts.tier));
  preflight(suite, checks);
  const auto exe = self_executable();
  SuiteOptions options{
      .coinfer_exe = exe,
      .update = opts.update,
      .machine = this_machine(),
      .machine_dir = opts.machine_dir.empty()
                         ? (std::filesystem::path(exe).parent_path() / "check-baselines").string()
                         : opts.machine_dir,
      .progress = [](const std::string& line) { std::fprintf(stderr, "check: %s\n", line.c_str()); }};
  const auto start = std::chrono::steady_clock::now();
  const SuiteOutcome outcome = run_checks(suite, checks, options);
  const double time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << rows_table(outcome.rows()) << summary(outcome, time_s) << notes(outcome, options);
  for (const auto& path : outcome.written) std::cout << "baseline written: " << path << "\n";
  if (!opts.junit.empty()) {
    std::vector<JunitSuite> cases;
    for (const auto& c : outcome.checks) cases.push_back({c.check->name, c.time_s, c.rows});
    write_file_atomic(opts.junit, junit_xml(suite.name, cases));
    std::cout << "junit: " << opts.junit << "\n";
  }
  // With --update a moved result or timing is the new baseline; a stated bound still holds.
  std::size_t failing = 0;
  for (const auto& c : outcome.checks)
    for (const auto& row : c.rows)
      if (row.verdict == Verdict::Regression && (!opts.update || c.check->baseline.empty())) ++failing;
  if (failing == 0) return;
  std::cout << fmt::format("FAILED: {} regression{}\n", failing, failing == 1 ? "" : "s");
  std::cout.flush();
  std::fflush(nullptr);
  std::exit(1);  // not an error of the input: main's exit code 2 is for those
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto opts = std::make_shared<CheckOptions>();
  auto* check = app.add_subcommand(
      "check", "Run a regression suite: results and timings against baselines (exit 1 on a regression)");
  check->add_option("suite", opts->file, "Suite YAML file")->required();
  check->add_flag("--update", opts->update,
                  "Record the baselines (each file rewritten whole) instead of comparing");
  check->add_option("--junit", opts->junit, "Also write JUnit XML to this file (one testcase per metric)");
  check->add_option("--only", opts->only, "Run only this check, whatever its tier (repeatable)");
  check->add_option("--tier", opts->tier, "quick (default): the quick checks; full: every check")
      ->check(one_of({"quick", "full"}));
  check->add_option("--machine-baselines", opts->machine_dir,
                    "Where a machine without a committed timing baseline records its own and finds it on "
                    "the next run (default: check-baselines/ next to the coinfer binary)");
  check->callback([opts] { run_check_command(*opts); });
}

}  // namespace coinfer::cli
