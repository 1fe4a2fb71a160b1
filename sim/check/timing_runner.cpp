#include "sim/check/timing_runner.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <random>
#include <regex>

#include <fmt/format.h>

#include "sim/check/process.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer::check {
namespace {

namespace fs = std::filesystem;

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
  return s;
}

bool uses_tmp(const std::vector<std::string>& argv) {
  for (const auto& a : argv)
    if (a.find("{tmp}") != std::string::npos) return true;
  return false;
}

double parse_number(const std::string& text) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw Error(fmt::format("'{}' is not a number", text));
  return v;
}

// One execution of a command; what it printed and how long it took.
class Runner {
 public:
  Runner(const TimingContext& ctx, const TimingCheck& t) : ctx_(ctx), timing_(t) {}

  ProcessResult run(const std::vector<std::string>& argv, const char* role) {
    const auto tmp = fs::path(ctx_.scratch) / fmt::format("tmp{}", count_);
    const bool fresh = uses_tmp(argv);
    if (fresh) fs::create_directories(tmp);
    auto args = expand_argv(argv, ctx_.coinfer_exe, tmp.string());
    const auto log = (fs::path(ctx_.scratch) / fmt::format("run{}", count_++)).string();
    if (timing_.measure == Measure::Benchmark && timing_.two_commands()) {
      // The file reporter writes JSON whatever the console shows (a benchmark with its own
      // display reporter ignores --benchmark_format).
      args.push_back("--benchmark_out=" + log + ".json");
      args.push_back("--benchmark_out_format=json");
    }
    ProcessResult r = run_process(args, ctx_.cwd, log);
    if (fresh) fs::remove_all(tmp);
    if (!r.ok()) throw Error(fmt::format("command {} ({}) failed: {}", role, fmt::join(argv, " "), r.why()));
    return r;
  }

  double seconds(const std::vector<std::string>& argv, const char* role) {
    const auto r = run(argv, role);
    double s = r.wall_s;
    if (timing_.measure == Measure::Cpu) s = r.cpu_s;
    if (timing_.measure == Measure::Benchmark) {
      try {
        s = benchmark_seconds(read_whole_file(r.log_prefix + ".json"));
      } catch (const Error& e) {
        throw Error(fmt::format("command {} ({}): {}", role, fmt::join(argv, " "), e.what()));
      }
    }
    if (!(s > 0.0))
      throw Error(fmt::format("command {} ({}) took no measurable time", role, fmt::join(argv, " ")));
    return s;
  }

 private:
  const TimingContext& ctx_;
  const TimingCheck& timing_;
  int count_ = 0;
};

std::vector<std::pair<std::string, std::vector<double>>> two_commands(
    const TimingCheck& t, Runner& runner, const std::function<void(const std::string&)>& progress) {
  for (int w = 0; w < t.warmup; ++w) {
    runner.run(t.a, "a");
    runner.run(t.b, "b");
  }
  std::vector<double> ratios;
  const auto order = interleaving(t.seed, t.repetitions);
  for (int r = 0; r < t.repetitions; ++r) {
    double a = 0.0, b = 0.0;
    if (order[static_cast<std::size_t>(r)]) {
      a = runner.seconds(t.a, "a");
      b = runner.seconds(t.b, "b");
    } else {
      b = runner.seconds(t.b, "b");
      a = runner.seconds(t.a, "a");
    }
    ratios.push_back(a / b);
    if (progress)
      progress(fmt::format("{}/{}: a {:.4g} s, b {:.4g} s, a/b {:.4g}", r + 1, t.repetitions, a, b, a / b));
  }
  return {{"a/b", ratios}};
}

std::vector<std::pair<std::string, std::vector<double>>> one_command(
    const TimingCheck& t, Runner& runner, const std::function<void(const std::string&)>& progress) {
  for (int w = 0; w < t.warmup; ++w) runner.run(t.command, "command");
  std::vector<std::pair<std::string, std::vector<double>>> out;
  for (const auto& [name, pattern] : t.ratios) out.emplace_back(name, std::vector<double>());
  for (int r = 0; r < t.repetitions; ++r) {
    const auto result = runner.run(t.command, "command");
    const auto text = read_whole_file(result.out_file);
    std::string line;
    for (std::size_t i = 0; i < t.ratios.size(); ++i) {
      try {
        out[i].second.push_back(reported_ratio(text, t.ratios[i].second));
      } catch (const Error& e) {
        throw Error(fmt::format("command ({}): ratio '{}': {}", fmt::join(t.command, " "), t.ratios[i].first,
                                e.what()));
      }
      line += fmt::format("{}{} {:.4g}", i ? ", " : "", t.ratios[i].first, out[i].second.back());
    }
    if (progress) progress(fmt::format("{}/{}: {}", r + 1, t.repetitions, line));
  }
  return out;
}

}  // namespace

std::vector<std::string> expand_argv(const std::vector<std::string>& argv, const std::string& coinfer_exe,
                                     const std::string& tmp) {
  const auto build = fs::path(coinfer_exe).parent_path().string();
  std::vector<std::string> out;
  for (const auto& a : argv)
    out.push_back(
        replace_all(replace_all(replace_all(a, "{coinfer}", coinfer_exe), "{build}", build), "{tmp}", tmp));
  return out;
}

double benchmark_seconds(const std::string& json_text) {
  Json doc;
  try {
    doc = Json::parse(json_text);
  } catch (const Json::exception&) {
    throw Error("no google-benchmark JSON in its --benchmark_out file; is it a google-benchmark program?");
  }
  std::vector<const Json*> runs;
  if (doc.contains("benchmarks") && doc["benchmarks"].is_array())
    for (const auto& b : doc["benchmarks"])
      if (b.value("run_type", "iteration") == "iteration") runs.push_back(&b);
  if (runs.size() != 1)
    throw Error(fmt::format("the output holds {} benchmarks; its --benchmark_filter must select exactly one",
                            runs.size()));
  const Json& b = *runs.front();
  if (b.value("error_occurred", false))
    throw Error("the benchmark reported an error: " + b.value("error_message", ""));
  const auto unit = b.value("time_unit", "ns");
  const double scale = unit == "s" ? 1.0 : unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : 1e-9;
  if (!b.contains("cpu_time") || !b["cpu_time"].is_number())
    throw Error("the benchmark's JSON has no cpu_time");
  return b["cpu_time"].get<double>() * scale;
}

double reported_ratio(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern)))
    throw Error(fmt::format("the output has no match of '{}'", pattern));
  return parse_number(m[1].str());
}

// Balanced: a goes first in half the repetitions (one more when odd), in an order shuffled by
// Fisher-Yates on a seeded mt19937_64 (written out, so the order is the same on every platform).
std::vector<bool> interleaving(std::uint64_t seed, int repetitions) {
  std::vector<bool> a_first;
  for (int r = 0; r < repetitions; ++r) a_first.push_back(r % 2 == 0);
  std::mt19937_64 rng(seed);
  for (std::size_t i = a_first.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng() % i);
    const bool tmp = a_first[i - 1];
    a_first[i - 1] = a_first[j];
    a_first[j] = tmp;
  }
  return a_first;
}

std::vector<std::pair<std::string, std::vector<double>>> measure_timing(
    const TimingCheck& timing, const TimingContext& context,
    const std::function<void(const std::string&)>& progress) {
  Runner runner(context, timing);
  return timing.two_commands() ? two_commands(timing, runner, progress)
                               : one_command(timing, runner, progress);
}

}  // namespace coinfer::check
