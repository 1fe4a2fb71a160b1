// `coinfer sweep SWEEP [--jobs N] [--out DIR] [--shard i/N]` and `coinfer merge A.csv B.csv -o OUT`.
// Each run executes in its own `coinfer run` child process: SimGrid cannot run two simulations
// in one process (its clock is not reset between engines).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"
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

// fork + exec `coinfer run <run_dir>/scenario.json --out <run_dir>`; stdout/stderr go to files there.
RunOutcome launch_child_process(const SweepRun&, const std::string& run_dir) {
  const auto exe = self_executable();
  const auto scenario = run_dir + "/scenario.json";
  const auto log = run_dir + "/log.txt";
  const pid_t pid = ::fork();
  if (pid < 0) return {false, {}, "fork failed"};
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    ::execl(exe.c_str(), exe.c_str(), "run", scenario.c_str(), "--out", run_dir.c_str(), "--quiet",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    auto why = last_line(log);
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
  } else if (p.done > 0) {
    std::fprintf(stderr, "sweep: %zu/%zu runs%s\n", finished, p.total,
                 p.failed ? fmt::format(", {} failed", p.failed).c_str() : "");
  }
}

}  // namespace

void add_sweep_commands(CLI::App& app) {
  struct Options {
    std::string file;
    std::string out = "out";
    int jobs = 1;
    std::string shard;
  };
  auto opts = std::make_shared<Options>();
  auto* sweep = app.add_subcommand("sweep", "Run every point of a sweep YAML, one child process per run");
  sweep->add_option("sweep", opts->file, "Sweep YAML file")->required();
  sweep->add_option("--jobs,-j", opts->jobs, "Runs in parallel")->check(CLI::PositiveNumber);
  sweep->add_option("--out,-o", opts->out, "Output directory (results.csv, runs/<i>/)");
  sweep->add_option("--shard", opts->shard, "Run only shard i of N (1-based), e.g. 2/8");
  sweep->callback([opts] {
    const SweepSpec spec = parse_sweep(read_yaml_file(opts->file), opts->file);
    SweepOptions options{.out_dir = opts->out, .jobs = opts->jobs};
    if (!opts->shard.empty()) std::tie(options.shard, options.shard_count) = parse_shard(opts->shard);
    const bool tty = ::isatty(2);
    const auto summary = run_sweep(spec, options, launch_child_process,
                                   [tty](const SweepProgress& p) { print_progress(p, tty); });
    for (const auto& f : summary.failures) std::fprintf(stderr, "sweep: %s\n", f.c_str());
    std::cout << fmt::format("{}: {} runs ({} already done, {} failed) -> {}\n", spec.name,
                             summary.progress.total, summary.progress.skipped, summary.progress.failed,
                             summary.csv_path);
    if (summary.progress.failed > 0)
      throw Error(fmt::format("{} of {} runs failed; rerun the same command to retry them",
                              summary.progress.failed, summary.progress.total));
  });

  auto inputs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto* merge = app.add_subcommand("merge", "Join shard results CSVs into one, sorted by run");
  merge->add_option("inputs", *inputs, "Shard CSV files")->required();
  merge->add_option("--out,-o", *out, "Merged CSV file")->required();
  merge->callback([inputs, out] {
    const auto rows = merge_results(*inputs, *out);
    std::cout << fmt::format("{} rows -> {}\n", rows, *out);
  });
}

}  // namespace coinfer::cli
