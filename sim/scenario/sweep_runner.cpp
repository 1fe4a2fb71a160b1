#include "sim/scenario/sweep_runner.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"

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
  for (const auto& axis : spec.points)
    for (const auto& [key, value] : axis.front().items())
      if (std::find(header.begin(), header.end(), key) == header.end()) header.push_back(key);
  for (const auto& m : kMetricColumns)
    if (std::find(header.begin(), header.end(), m) == header.end()) header.push_back(m);
  return header;
}

SweepSummary run_sweep(const SweepSpec& spec, const SweepOptions& options, const RunLauncher& launch,
                       const ProgressFn& progress) {
  if (options.jobs < 1) throw InputError("", "--jobs", "expected a positive number of jobs");
  if (options.shard >= options.shard_count) throw InputError("", "--shard", "shard out of range");
  std::filesystem::create_directories(options.out_dir);
  SweepSummary summary;
  summary.csv_path = (std::filesystem::path(options.out_dir) /
                      (options.shard_count == 1 ? std::string("results.csv")
                                                : fmt::format("results.shard-{}-of-{}.csv", options.shard + 1,
                                                              options.shard_count)))
                         .string();
  const auto header = sweep_csv_header(spec);
  ResultsCsv csv(summary.csv_path, header);

  std::vector<std::size_t> todo;
  const auto n = sweep_size(spec);
  for (std::size_t i = options.shard; i < n; i += options.shard_count) {
    ++summary.progress.total;
    if (csv.done().count(i))
      ++summary.progress.skipped;
    else
      todo.push_back(i);
  }
  if (progress) progress(summary.progress);

  std::mutex mutex;  // guards csv, summary and progress reporting
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k = next++; k < todo.size(); k = next++) {
      const SweepRun run = sweep_run(spec, todo[k]);
      const auto run_dir =
          (std::filesystem::path(options.out_dir) / "runs" / std::to_string(run.index)).string();
      std::filesystem::create_directories(run_dir);
      std::ofstream(std::filesystem::path(run_dir) / "scenario.json") << run.scenario.dump(2) << "\n";
      RunOutcome outcome;
      try {
        outcome = launch(run, run_dir);
      } catch (const std::exception& e) {
        outcome = {false, {}, e.what()};
      }
      std::lock_guard lock(mutex);
      ++summary.progress.done;
      if (outcome.ok) {
        std::vector<std::string> cells;
        for (std::size_t c = 1; c < header.size(); ++c) {
          const Json* assigned = run.assignments.contains(header[c]) ? &run.assignments[header[c]] : nullptr;
          cells.push_back(assigned ? cell_of(*assigned) : metric_cell(outcome.results, header[c]));
        }
        csv.append(run.index, cells);
      } else {
        ++summary.progress.failed;
        summary.failures.push_back(fmt::format("run {}: {}", run.index, outcome.error));
      }
      if (progress) progress(summary.progress);
    }
  };
  std::vector<std::thread> threads;
  const auto count =
      std::min<std::size_t>(static_cast<std::size_t>(options.jobs), std::max<std::size_t>(todo.size(), 1));
  for (std::size_t t = 0; t < count; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  return summary;
}

}  // namespace coinfer
