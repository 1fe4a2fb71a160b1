// `coinfer sweep SWEEP [--jobs N] [--out DIR] [--shard i/N]` and `coinfer merge A.csv B.csv -o OUT`.
// Each run executes in its own `coinfer run` child process: SimGrid cannot run two simulations
// in one process (its clock is not reset between engines).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/builtin_registries.hpp"
#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "cli/progress_line.hpp"
#include "cli/run_outputs.hpp"
#include "sim/core/error.hpp"
#include "sim/platform/platform_yaml.hpp"
#include "sim/replay/child_process.hpp"
#include "sim/replay/simulate.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/sweep_merge.hpp"
#include "sim/scenario/sweep_runner.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace coinfer::cli {
namespace {

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

// A finished run's outcome from its exit status: its results.json, or the last line it printed.
RunOutcome run_outcome(const std::string& run_dir, int status) {
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    auto why = last_line(run_dir + "/log.txt");
    if (why.empty())
      why = WIFSIGNALED(status) ? fmt::format("killed by signal {}", WTERMSIG(status)) : "failed";
    return {false, {}, why};
  }
  try {
    return {true, read_json_file(run_dir + "/results.json"), ""};
  } catch (const Error& e) {
    return {false, {}, e.what()};
  }
}

// Forks a run's child process, which sends its stdout/stderr to run_dir/log.txt, dies with the
// sweep, and runs `body` (which must not return).
template <class Body>
StartedRun start_child(const std::string& run_dir, Body body) {
  const auto log = run_dir + "/log.txt";
  const pid_t pid = fork_bound_to_parent("the run's process");  // a killed sweep leaves no run behind
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::close(fd);
    }
    body();
  }
  return {pid, [run_dir](int status) { return run_outcome(run_dir, status); }};
}

// fork + exec `coinfer run <run_dir>/scenario.json --out <run_dir> --quiet`.
// (`--launch exec`: every run pays a process start, mostly the dynamic loader's; kept as the
// reference the fork launcher is checked and benchmarked against.)
StartedRun launch_exec(const SweepRun&, const std::string& run_dir) {
  const auto exe = self_executable();
  const auto scenario = run_dir + "/scenario.json";
  return start_child(run_dir, [&] {
    ::execl(exe.c_str(), exe.c_str(), "run", scenario.c_str(), "--out", run_dir.c_str(), "--quiet",
            static_cast<char*>(nullptr));
    ::_exit(127);
  });
}

// fork without exec: the child inherits this process's loaded libraries, registries and parsed
// sweep, and runs exactly what `coinfer run <run_dir>/scenario.json --out <run_dir> --quiet` runs
// (one simulation per child, as SimGrid requires), writing the same files and, on failure, the same
// error line. Safe because the sweep process has a single thread (sweep_runner.hpp).
// The child takes the run's scenario from memory rather than parse the scenario.json just written
// (parsing it was about a fifth of a one-frame run, a quarter with its platform's files).
RunLauncher fork_launcher(const SweepSpec& sweep) {
  auto partitioners = std::make_shared<PartitionerRegistry>(builtin_partitioners());
  auto schedulers = std::make_shared<SchedulerRegistry>(builtin_schedulers());
  auto spec_of_sweep = std::make_shared<const SweepSpec>(sweep);
  return [partitioners, schedulers, spec_of_sweep](const SweepRun& run, const std::string& run_dir) {
    return start_child(run_dir, [&] {
      int code = 0;
      try {
        const ScenarioSpec spec =
            scenario_from_document(run_folder_scenario(*spec_of_sweep, run), run_dir + "/scenario.json", {});
        write_run_outputs(spec, execute_scenario(spec, *partitioners, *schedulers), run_dir, "", false);
      } catch (const Error& e) {
        std::fprintf(stderr, "coinfer: error: %s\n", e.what());
        code = 2;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "coinfer: internal error: %s\n", e.what());
        code = 1;
      }
      std::fflush(nullptr);
      ::_exit(code);  // no static destructors: SimGrid's state belongs to this process only
    });
  };
}

// A bar on a terminal; in a log, a line at each tenth of the runs (and the last).
void print_progress(const SweepProgress& p, bool tty) {
  const auto finished = p.skipped + p.done;
  if (tty) {
    const int width = 30;
    const int filled = p.total ? static_cast<int>(width * finished / p.total) : width;
    std::fprintf(stderr, "\r[%s%s] %zu/%zu runs%s",
                 std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), '.').c_str(), finished, p.total,
                 p.failed ? fmt::format(", {} failed", p.failed).c_str() : "");
    if (finished == p.total) std::fprintf(stderr, "\n");
    return;
  }
  const auto tenth = [&](std::size_t k) { return p.total ? 10 * k / p.total : 10; };
  if (p.done > 0 && (finished == p.total || tenth(finished) != tenth(finished - 1)))
    std::fprintf(stderr, "sweep: %zu/%zu runs%s\n", finished, p.total,
                 p.failed ? fmt::format(", {} failed", p.failed).c_str() : "");
}

// Checks a point as `coinfer run` would before simulating: the scenario's keys, the named
// partitioner and scheduler with their parameters, the model and the platform (each loaded once).
PointCheck point_checker(const SweepSpec& spec) {
  struct State {
    PartitionerRegistry partitioners = builtin_partitioners();
    SchedulerRegistry schedulers = builtin_schedulers();
    std::set<std::string> checked_inputs;
  };
  auto state = std::make_shared<State>();
  // checking a large sweep takes seconds: "sweep: checking point 2400 of 100000" on stderr
  auto progress = std::make_shared<ProgressLine>("sweep: checking point {} of {}");
  return [state, progress, total = sweep_size(spec), file = spec.file](const SweepRun& run) {
    progress->update(run.index + 1, total);
    const ScenarioSpec scenario = parse_scenario(run.scenario, file);
    const Json inputs{{"model", scenario.model},
                      {"platform", run.scenario.value("platform", Json())},
                      {"source", scenario.source}};
    if (state->checked_inputs.insert(inputs.dump()).second) (void)load_scenario_inputs(scenario);
    check_scenario_components(scenario, state->partitioners, state->schedulers);
  };
}

std::string dry_run_line(const SweepRun& run) {
  return fmt::format("{:>6}  {}  {}\n", run.index, run.point_hash, describe_run(run));
}

}  // namespace

void add_sweep_commands(CLI::App& app) {
  struct Options {
    std::string file;
    std::string out = "out";
    int jobs = 1;
    std::string shard;
    bool dry_run = false;
    std::string launch = "fork";
  };
  auto opts = std::make_shared<Options>();
  auto* sweep = app.add_subcommand("sweep", "Run every point of a sweep YAML, one child process per run");
  sweep->add_option("sweep", opts->file, "Sweep YAML file")->required();
  sweep->add_option("--jobs,-j", opts->jobs, "Runs in parallel (>= 1)")->check(at_least_one());
  sweep->add_option("--out,-o", opts->out, "Output directory (results.csv, results.sweep.json, runs/<i>/)");
  sweep->add_option("--shard", opts->shard,
                    "Run only shard i of N, 1-based (1/4 ... 4/4): runs i-1, i-1+N, ...");
  sweep->add_flag("--dry-run", opts->dry_run, "List and check every point; run and write nothing");
  sweep
      ->add_option("--launch", opts->launch,
                   "How a run's process starts: fork (default: a copy of this process, no program load) "
                   "or exec (a fresh `coinfer run`); the results are the same")
      ->check(one_of({"fork", "exec"}));
  sweep->callback([opts] {
    if (std::error_code ec; std::filesystem::is_directory(opts->file, ec))
      throw InputError(opts->file, "", "is a directory, expected a sweep YAML file");
    // Each platform file is parsed once, when the points are checked; the runs' child processes
    // inherit what was read.
    const PlatformFileMemo platforms;
    const SweepSpec spec = parse_sweep(read_yaml_file(opts->file), opts->file);
    if (spec.dropped_report)
      std::fprintf(
          stderr,
          "sweep: note: the base's report: block is not drawn in a sweep (run the scenario for it)\n");
    const auto check = point_checker(spec);
    if (opts->dry_run) {
      std::cout << fmt::format("{:>6}  {:<16}  {}\n", "run", "point_hash", "point");
      const auto hashes =
          check_sweep(spec, check, [](const SweepRun& run) { std::cout << dry_run_line(run); });
      std::cout << fmt::format("{}: {} runs, every point valid; nothing was run\n", spec.name, hashes.size());
      return;
    }
    SweepOptions options{.out_dir = opts->out, .jobs = opts->jobs};
    if (!opts->shard.empty()) std::tie(options.shard, options.shard_count) = parse_shard(opts->shard);
    const bool tty = ::isatty(2);
    const auto summary = run_sweep(
        spec, options, opts->launch == "exec" ? RunLauncher(launch_exec) : fork_launcher(spec),
        [tty](const SweepProgress& p) { print_progress(p, tty); }, check);
    for (const auto& f : summary.failures) std::fprintf(stderr, "sweep: %s\n", f.c_str());
    std::cout << fmt::format("{}: {} runs ({} already done, {} failed) -> {}\n", spec.name,
                             summary.progress.total, summary.progress.skipped, summary.progress.failed,
                             summary.csv_path);
    if (summary.progress.failed > 0)
      throw Error(fmt::format("{} of {} runs failed; rerun the same command to retry them",
                              summary.progress.failed, summary.progress.total));
  });

  struct MergeOptions {
    std::vector<std::string> inputs;
    std::string out;
    bool allow_partial = false;
  };
  auto merge_opts = std::make_shared<MergeOptions>();
  auto* merge = app.add_subcommand("merge", "Join shard results CSVs into one, sorted by run");
  merge->add_option("inputs", merge_opts->inputs, "Shard CSV files")->required();
  merge->add_option("--out,-o", merge_opts->out, "Merged CSV file")->required();
  merge->add_flag("--allow-partial", merge_opts->allow_partial,
                  "Write the merge even when runs of the sweep are missing (they are listed)");
  merge->callback([merge_opts] {
    const auto m = merge_results(merge_opts->inputs, merge_opts->out, merge_opts->allow_partial);
    std::cout << fmt::format("{} rows -> {}\n", m.rows, merge_opts->out);
    if (!m.missing_known)
      std::fprintf(stderr, "merge: an input has no sweep manifest: missing runs unknown\n");
    if (!m.missing.empty())
      std::fprintf(stderr, "merge: %zu runs missing (--allow-partial)\n", m.missing.size());
  });
}

}  // namespace coinfer::cli
