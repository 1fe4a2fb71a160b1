#include "sim/check/suite_runner.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "sim/check/baseline_file.hpp"
#include "sim/check/process.hpp"
#include "sim/check/result_compare.hpp"
#include "sim/check/result_runner.hpp"
#include "sim/check/timing_runner.hpp"
#include "sim/check/timing_verdict.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"

namespace coinfer::check {
namespace {

namespace fs = std::filesystem;

// What a timing baseline must have been recorded with to be comparable.
Json timing_setup(const TimingCheck& t) {
  if (t.two_commands())
    return Json{{"measure", measure_name(t.measure)},
                {"a", fmt::format("{}", fmt::join(t.a, " "))},
                {"b", fmt::format("{}", fmt::join(t.b, " "))}};
  return Json{{"command", fmt::format("{}", fmt::join(t.command, " "))}};
}

std::optional<BaselineFile> load_baseline(const Suite& suite, const Check& check,
                                          const SuiteOptions& options) {
  const bool update = options.update;
  if (check.baseline.empty()) return std::nullopt;
  if (!fs::exists(check.baseline)) {
    // A timing check without a file yet: every machine records its own (see run_timing).
    if (update || check.timing() != nullptr) return std::nullopt;
    throw InputError(suite.file, join_path(check.path, "baseline"),
                     fmt::format("'{}' not found; record it with coinfer check {} --update --only {}",
                                 check.baseline_text, suite.file, check.name));
  }
  BaselineFile b;
  try {
    b = read_baseline(check.baseline, check.name);
  } catch (const InputError& e) {
    if (!update) throw;
    // A baseline left unreadable (a merge conflict in it, say) is what --update is for.
    if (options.progress) options.progress(fmt::format("{}: recording anew ({})", check.name, e.what()));
    return std::nullopt;
  }
  if (const auto* t = check.timing(); t != nullptr && b.setup != timing_setup(*t)) {
    if (update) return std::nullopt;  // other commands: nothing to compare with
    throw InputError(check.baseline, "setup",
                     fmt::format("recorded for {}, but the check now runs {}; record it again with "
                                 "coinfer check {} --update --only {}",
                                 b.setup.dump(), timing_setup(*t).dump(), suite.file, check.name));
  }
  if (check.result() != nullptr && b.timing())
    throw InputError(check.baseline, "setup", "a timing baseline, but the check compares results");
  if (check.timing() != nullptr && !b.metrics.empty())
    throw InputError(check.baseline, "metrics", "a result baseline, but the check times commands");
  return b;
}

struct CheckRun {
  std::vector<CheckRow> rows;
  std::optional<BaselineFile> fresh;   // what --update writes
  std::optional<BaselineFile> record;  // this machine's own baseline, for machine_dir
};

// `<machine_dir>/<suite>/<check>.json`
std::string machine_file(const SuiteOptions& options, const Suite& suite, const Check& check) {
  return (fs::path(options.machine_dir) / suite.name / (check.name + ".json")).string();
}

// What this machine recorded for the check on an earlier run; nothing when there is no such
// file, or it is unreadable or of other commands (it is rewritten then).
std::optional<BaselineFile> own_recording(const std::string& path, const Check& check, const Json& setup,
                                          const SuiteOptions& options) {
  if (std::error_code ec; !fs::is_regular_file(path, ec)) return std::nullopt;
  try {
    auto b = read_baseline(path, check.name);
    if (b.setup == setup) return b;
  } catch (const InputError& e) {
    if (options.progress) options.progress(fmt::format("{}: recording anew ({})", check.name, e.what()));
  }
  return std::nullopt;
}

CheckRun run_result(const Suite& suite, const Check& check, const BaselineFile* old,
                    const SuiteOptions& options, const std::string& scratch) {
  const auto& r = *check.result();
  RunResults results;
  try {
    results = run_result_check(r, options.coinfer_exe, scratch);
  } catch (const InputError& e) {
    throw InputError(suite.file,
                     join_path(check.path, r.sweep    ? "sweep"
                                           : r.claims ? "claims"
                                                      : "scenario"),
                     e.what());
  }
  ResultComparison cmp;
  try {
    cmp = compare_results(check, results, old);
  } catch (const InputError& e) {
    if (e.file().empty()) throw e.with_file(suite.file);  // the suite's metric names nothing
    if (!options.update) throw;                           // the baseline file holds bad input
    cmp = compare_results(check, results, nullptr);       // which --update rewrites
  }
  BaselineFile fresh;
  fresh.check = check.name;
  fresh.metrics = cmp.values;
  return {cmp.rows, fresh, std::nullopt};
}

CheckRun run_timing(const Suite& suite, const Check& check, const BaselineFile* old,
                    const SuiteOptions& options, const std::string& scratch) {
  const auto& t = *check.timing();
  RatioSamples samples;
  try {
    samples = measure_timing(t, {options.coinfer_exe, suite.dir, scratch}, [&](const std::string& line) {
      if (options.progress) options.progress(fmt::format("  {}: {}", check.name, line));
    });
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {} ({}): {}", suite.file, check.path, check.name, e.what()));
  }
  const Json setup = timing_setup(t);
  // This machine's samples: the suite's baseline file's, else its own from an earlier run.
  const MachineSamples* mine = old ? old->machine(options.machine) : nullptr;
  const auto own_path = options.machine_dir.empty() ? "" : machine_file(options, suite, check);
  std::optional<BaselineFile> own;
  if (mine == nullptr && !t.bound && !options.update && !own_path.empty()) {
    own = own_recording(own_path, check, setup, options);
    mine = own ? own->machine(options.machine) : nullptr;
  }
  CheckRun run;
  bool noisy = false;
  for (const auto& [name, values] : samples) {
    auto row = judge_timing(check.name, name, values, mine ? mine->ratio(name) : nullptr, t);
    row.metric = t.two_commands() ? fmt::format("a/b {}", measure_name(t.measure)) : name;
    noisy = noisy || row.verdict == Verdict::Noisy;
    if (own && mine != nullptr && !t.bound)
      row.detail += fmt::format("; against this machine's {}", own_path);
    run.rows.push_back(std::move(row));
  }
  if (t.bound) return run;
  BaselineFile fresh = options.update ? (old ? *old : BaselineFile{}) : (own ? *own : BaselineFile{});
  fresh.check = check.name;
  fresh.setup = setup;
  fresh.put_machine({options.machine, samples});
  if (options.update) {
    run.fresh = fresh;
  } else if ((own || mine == nullptr) && !own_path.empty()) {
    // Recorded when something is new, unless some ratio is too noisy to be worth comparing with.
    bool fresh_rows = false;
    for (auto& row : run.rows) {
      if (row.verdict != Verdict::New) continue;
      fresh_rows = true;
      row.detail = noisy ? row.detail + "; nothing recorded (noisy)"
                         : fmt::format("no baseline for {}: recorded in {}", options.machine, own_path);
    }
    if (fresh_rows && !noisy) run.record = fresh;
  }
  return run;
}

std::string describe(const Check& check) {
  if (const auto* r = check.result())
    return fmt::format("{} {}", r->sweep ? "sweep" : r->claims ? "claims" : "scenario", r->file);
  const auto& t = *check.timing();
  return t.two_commands() ? fmt::format("{} x (a, b), {} time", t.repetitions, measure_name(t.measure))
                          : fmt::format("{} x command", t.repetitions);
}

}  // namespace

std::size_t SuiteOutcome::count(Verdict verdict) const {
  std::size_t n = 0;
  for (const auto& c : checks)
    for (const auto& r : c.rows) n += r.verdict == verdict;
  return n;
}

std::vector<CheckRow> SuiteOutcome::rows() const {
  std::vector<CheckRow> out;
  for (const auto& c : checks) out.insert(out.end(), c.rows.begin(), c.rows.end());
  return out;
}

SuiteOutcome run_checks(const Suite& suite, const std::vector<const Check*>& checks,
                        const SuiteOptions& options) {
  std::map<const Check*, std::optional<BaselineFile>> baselines;
  for (const Check* c : checks) baselines[c] = load_baseline(suite, *c, options);
  if (options.progress)
    options.progress(fmt::format("suite {} ({}): {} of {} checks{}", suite.name, suite.file, checks.size(),
                                 suite.checks.size(), options.update ? ", recording baselines" : ""));
  SuiteOutcome outcome;
  std::vector<std::pair<std::string, BaselineFile>> to_write, to_record;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Check& check = *checks[i];
    if (options.progress)
      options.progress(fmt::format("[{}/{}] {} ({}): {}", i + 1, checks.size(), check.name,
                                   tier_name(check.tier), describe(check)));
    const auto start = std::chrono::steady_clock::now();
    const TempDir scratch("coinfer-check");
    const BaselineFile* old = baselines[&check] ? &*baselines[&check] : nullptr;
    auto run = check.result() ? run_result(suite, check, old, options, scratch.path())
                              : run_timing(suite, check, old, options, scratch.path());
    const double time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.progress)
      options.progress(fmt::format("[{}/{}] {}: {} rows in {:.1f} s", i + 1, checks.size(), check.name,
                                   run.rows.size(), time_s));
    if (options.update && run.fresh) to_write.emplace_back(check.baseline, *run.fresh);
    if (run.record) to_record.emplace_back(machine_file(options, suite, check), *run.record);
    outcome.checks.push_back({&check, std::move(run.rows), time_s});
  }
  for (const auto& [path, baseline] : to_write) {
    write_file_atomic(path, baseline_text(baseline));
    outcome.written.push_back(path);
  }
  for (const auto& [path, baseline] : to_record) {
    fs::create_directories(fs::path(path).parent_path());
    write_file_atomic(path, baseline_text(baseline));
    outcome.recorded.push_back(path);
  }
  return outcome;
}

}  // namespace coinfer::check
