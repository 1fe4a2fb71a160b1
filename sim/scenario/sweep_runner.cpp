#include "sim/scenario/sweep_runner.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include <sys/wait.h>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"
#include "sim/scenario/scenario_paths.hpp"
#include "sim/scenario/sweep_manifest.hpp"

namespace coinfer {

std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    std::size_t used_i = 0, used_n = 0;
    const auto i = std::stoull(text.substr(0, slash), &used_i);
    const auto n = std::stoull(text.substr(slash + 1), &used_n);
    if (used_i != slash || used_n != text.size() - slash - 1 || n < 1 || i < 1 || i > n)
      throw std::invalid_argument("range");
    return {static_cast<std::size_t>(i - 1), static_cast<std::size_t>(n)};
  } catch (const std::exception&) {
    throw InputError("", "--shard", fmt::format("expected i/N with 1 <= i <= N, got '{}'", text));
  }
}

std::vector<std::string> sweep_csv_header(const SweepSpec& spec) {
  std::vector<std::string> header{"run"};
  if (!spec.variants.empty()) header.push_back("variant");
  for (const auto& axis : spec.points)
    for (const auto& [key, value] : axis.front().items())
      if (std::find(header.begin(), header.end(), key) == header.end()) header.push_back(key);
  for (const auto& m : kMetricColumns)
    if (std::find(header.begin(), header.end(), m) == header.end()) header.push_back(m);
  for (const auto& m : spec.columns)
    if (std::find(header.begin(), header.end(), m) == header.end()) header.push_back(m);
  header.push_back("point_hash");
  return header;
}

std::vector<std::string> check_sweep(const SweepSpec& spec, const PointCheck& check,
                                     const std::function<void(const SweepRun&)>& each) {
  const auto n = sweep_size(spec);
  std::vector<std::string> hashes;
  hashes.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const SweepRun run = sweep_run(spec, i);
    if (check) {
      try {
        check(run);
      } catch (const InputError& e) {
        // `sw.yaml: run 3 (partitioner.name=nosuch): partitioner.name: unknown partitioner ...`
        const auto inner = e.file().empty() || e.file() == spec.file
                               ? (e.path().empty() ? e.message() : e.path() + ": " + e.message())
                               : std::string(e.what());
        throw InputError(spec.file, fmt::format("run {} ({})", i, describe_run(run)), inner);
      }
    }
    if (each) each(run);
    hashes.push_back(run.point_hash);
  }
  return hashes;
}

namespace {

std::string csv_path_of(const SweepOptions& options) {
  return (std::filesystem::path(options.out_dir) /
          (options.shard_count == 1
               ? std::string("results.csv")
               : fmt::format("results.shard-{}-of-{}.csv", options.shard + 1, options.shard_count)))
      .string();
}

// Rows already in the CSV must be this sweep's points under the same run numbers.
void check_existing_rows(const ResultsCsv& csv, const std::string& path, const SweepSpec& spec,
                         const SweepOptions& options, const std::vector<std::string>& hashes) {
  for (const auto& [run, record] : csv.rows()) {
    const auto where = fmt::format("line {}", record.line);
    if (run >= hashes.size() || run % options.shard_count != options.shard)
      throw InputError(
          path, where,
          fmt::format("run {} is not a run of this sweep{}; the sweep changed since this file was "
                      "written: use a new --out folder, or delete the file to rerun everything",
                      run, options.shard_count > 1 ? " shard" : ""));
    if (record.cells.back() != hashes[run])
      throw InputError(
          path, where,
          fmt::format("run {} holds results of another point than this sweep's run {} ({}); the sweep "
                      "changed since this file was written: use a new --out folder, or delete the "
                      "file to rerun everything",
                      run, run, describe_run(sweep_run(spec, run))));
  }
}

// A run's folder holds only what this run writes: stale results of an earlier attempt go first.
std::string fresh_run_dir(const SweepOptions& options, const SweepRun& run, const SweepSpec& spec) {
  const auto run_dir = (std::filesystem::path(options.out_dir) / "runs" / std::to_string(run.index)).string();
  std::filesystem::remove_all(run_dir);
  write_file_atomic(run_dir + "/scenario.json", run_folder_scenario(spec, run).dump(2) + "\n");
  return run_dir;
}

}  // namespace

Json run_folder_scenario(const SweepSpec& spec, const SweepRun& run) {
  Json scenario = run.scenario;
  rebase_scenario_paths(scenario, spec.dir(), "");
  return scenario;
}

RunLauncher in_process(std::function<RunOutcome(const SweepRun&, const std::string&)> run) {
  return [run = std::move(run)](const SweepRun& r, const std::string& dir) {
    auto outcome = std::make_shared<RunOutcome>(run(r, dir));
    return StartedRun{0, [outcome](int) { return *outcome; }};
  };
}

SweepSummary run_sweep(const SweepSpec& spec, const SweepOptions& options, const RunLauncher& launch,
                       const ProgressFn& progress, const PointCheck& check) {
  if (options.jobs < 1) throw InputError("", "--jobs", "expected an integer >= 1");
  if (options.shard >= options.shard_count) throw InputError("", "--shard", "shard out of range");
  // Every point is expanded twice: here to check it and hash it, and again when it is launched.
  // Keeping the expanded scenarios instead would hold the whole sweep's JSON in memory at once; an
  // expansion is a few key assignments, cheap next to the run it starts.
  const auto hashes = check_sweep(spec, check);
  SweepSummary summary;
  summary.csv_path = csv_path_of(options);
  std::error_code made;
  std::filesystem::create_directories(options.out_dir, made);
  if (made) throw InputError(options.out_dir, "", "cannot create the output folder: " + made.message());
  const auto header = sweep_csv_header(spec);
  ResultsCsv csv(summary.csv_path, header);
  check_existing_rows(csv, summary.csv_path, spec, options, hashes);
  write_manifest(summary.csv_path, SweepManifest{spec.name, spec.file, hashes.size(), options.shard + 1,
                                                 options.shard_count, sweep_hash_of(hashes), header});

  std::vector<std::size_t> todo;
  const auto n = hashes.size();
  for (std::size_t i = options.shard; i < n; i += options.shard_count) {
    ++summary.progress.total;
    if (csv.done().count(i))
      ++summary.progress.skipped;
    else
      todo.push_back(i);
  }
  if (progress) progress(summary.progress);

  auto record = [&](const SweepRun& run, const RunOutcome& outcome) {
    ++summary.progress.done;
    if (outcome.ok) {
      std::vector<std::string> cells;
      for (std::size_t c = 1; c + 1 < header.size(); ++c) {
        if (header[c] == "variant" && !spec.variants.empty()) {
          cells.push_back(run.variant);
          continue;
        }
        const Json* assigned = run.assignments.contains(header[c]) ? &run.assignments[header[c]] : nullptr;
        cells.push_back(assigned ? cell_of(*assigned) : metric_cell(outcome.results, header[c]));
      }
      cells.push_back(run.point_hash);
      csv.append(run.index, cells);
    } else {
      ++summary.progress.failed;
      summary.failures.push_back(fmt::format("run {}: {}", run.index, outcome.error));
    }
    if (progress) progress(summary.progress);
  };
  auto finish = [](const std::function<RunOutcome(int)>& f, int status) {
    try {
      return f(status);
    } catch (const std::exception& e) {
      return RunOutcome{false, {}, e.what()};
    }
  };

  struct Running {
    SweepRun run;
    std::function<RunOutcome(int)> finish;
  };
  std::map<int, Running> running;  // by child pid
  const auto jobs = static_cast<std::size_t>(options.jobs);
  std::size_t next = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < jobs) {
      SweepRun run = sweep_run(spec, todo[next++]);
      StartedRun started;
      try {
        started = launch(run, fresh_run_dir(options, run, spec));
      } catch (const std::exception& e) {
        record(run, {false, {}, e.what()});
        continue;
      }
      if (started.pid == 0)
        record(run, finish(started.finish, 0));
      else
        running.emplace(started.pid, Running{std::move(run), std::move(started.finish)});
    }
    if (running.empty()) continue;
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);  // a sweep process has no other children
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw Error(fmt::format("waiting for the sweep's runs failed: {}", std::strerror(errno)));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Running done = std::move(it->second);
    running.erase(it);
    record(done.run, finish(done.finish, status));
  }
  if (summary.progress.failed == 0) csv.rewrite_sorted();  // the same file whatever --jobs was
  return summary;
}

}  // namespace coinfer
