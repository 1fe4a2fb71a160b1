#pragma once
/// Runs a sweep: every run of the (optionally sharded) expansion through a launcher, `jobs` at a
/// time, appending each finished run's row to the results CSV as soon as it completes.
///
/// The sweep has one thread: a launcher starts a run's child process and returns at once, and the
/// sweep waits for whichever child ends first (`waitpid`). A child forked without exec may run any
/// code only because its parent has no other thread that could hold a lock (malloc's, the
/// unwinder's, a static's initialisation guard) at the moment of the fork; with worker threads,
/// a run forked while another thread held one inherited it held forever and hung.
///
/// Before any run starts, every point of the sweep is expanded and checked (`PointCheck`), so a
/// typo in an axis fails once. Rows already in the CSV are skipped only when their `point_hash`
/// is the hash of this sweep's point with the same run number: a killed sweep resumes where it
/// stopped, a sweep extended in a way that keeps the old run numbers runs only the new points,
/// and a sweep whose points changed under old rows is refused (nothing is silently reused).
/// A manifest next to the CSV (sweep_manifest.hpp) records which sweep the rows belong to.
///
///     auto summary = run_sweep(spec, {.out_dir = "out", .jobs = 2}, launch_child_process, on_progress);
#include <functional>
#include <string>
#include <vector>

#include "sim/scenario/sweep.hpp"

namespace coinfer {

struct SweepOptions {
  std::string out_dir = "out";
  int jobs = 1;
  std::size_t shard = 0;        ///< this shard (0-based) ...
  std::size_t shard_count = 1;  ///< ... of this many: runs with index % shard_count == shard
};

struct RunOutcome {
  bool ok = false;
  Json results;       ///< the run's results.json when ok
  std::string error;  ///< one line when not ok
};

/// A run a launcher started: its child process, and how to read its outcome once `waitpid`
/// reported the child's `status`. `pid` 0: the launcher ran it in-process (`in_process`), and
/// `finish(0)` gives the outcome.
struct StartedRun {
  int pid = 0;
  std::function<RunOutcome(int status)> finish;
};

/// The scenario of `run` as its run folder holds it (runs/<i>/scenario.json): its paths made
/// absolute, so that it reads the same from any folder.
Json run_folder_scenario(const SweepSpec& spec, const SweepRun& run);

/// Starts one scenario (written to `run_dir`/scenario.json, paths absolute); its results end up in
/// `run_dir`. Called only from the sweep's one thread.
using RunLauncher = std::function<StartedRun(const SweepRun& run, const std::string& run_dir)>;

/// A launcher that runs `run` in this process and returns (tests, and launchers without a child).
RunLauncher in_process(std::function<RunOutcome(const SweepRun& run, const std::string& run_dir)> run);

/// Checks one point before anything runs; throws `InputError` when the point's scenario is
/// invalid (unknown partitioner, bad key, missing file...). The scenario's paths are relative to
/// the sweep file's folder, so check it as if it were written in the sweep file.
using PointCheck = std::function<void(const SweepRun& run)>;

struct SweepProgress {
  std::size_t total = 0;    ///< runs in this shard
  std::size_t skipped = 0;  ///< already in the CSV
  std::size_t done = 0;     ///< finished now (ok or failed)
  std::size_t failed = 0;
};
using ProgressFn = std::function<void(const SweepProgress&)>;

struct SweepSummary {
  SweepProgress progress;
  std::string csv_path;
  std::vector<std::string> failures;  ///< "run 7: <error>"
};

/// `--shard 2/4` -> {1, 4} (the user writes 1-based shard numbers); throws InputError.
std::pair<std::size_t, std::size_t> parse_shard(const std::string& text);

/// The CSV header: run, variant (with variants), axis keys (axis order), metric columns, point_hash.
std::vector<std::string> sweep_csv_header(const SweepSpec& spec);

/// Expands every run in order, checks it with `check` (when set) and calls `each` (when set);
/// returns the point hashes. The first invalid point throws
/// `InputError(sweep file, "run 3 (partitioner.name=nosuch)", ...)`.
std::vector<std::string> check_sweep(const SweepSpec& spec, const PointCheck& check,
                                     const std::function<void(const SweepRun&)>& each = {});

SweepSummary run_sweep(const SweepSpec& spec, const SweepOptions& options, const RunLauncher& launch,
                       const ProgressFn& progress = {}, const PointCheck& check = {});

}  // namespace coinfer
