// `coinfer step-times MODEL [--batches 1,2,4,...] [--repeats N] [--seed S] [--per-sample]`: the host time
// of a real training step (forward, backward, SGD update) at several minibatch sizes
// (sim/functional/step_timer.hpp), the lookup table of AdaLearner's sec. 3.3 / Fig. 3.7-3.8, with the time
// per sample against the first size's (t(B) / (B t(1)) when the first is 1: 1 = linear from the first
// sample, below 1 = batching pays, Fig. 3.7's MLP), the least-squares line t = a + b * batch and each
// size's deviation from it (Fig. 3.7: linear for LeNet and ConvNet).
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/functional/step_timer.hpp"
#include "sim/models/zoo.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct StepTimesOptions {
  std::string model;
  std::vector<std::int64_t> batches{1, 2, 4, 8, 16, 32, 64, 128, 150};
  int repeats = 3;
  std::uint64_t seed = 1;
  bool per_sample = false;  // conv2d and fc sample by sample (TrainOptions::batched_layers = false)
};

// Least squares t = a + b x over the table.
std::pair<double, double> fit_line(const std::vector<StepTime>& t) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const auto n = static_cast<double>(t.size());
  for (const auto& s : t) {
    const auto x = static_cast<double>(s.batch);
    sx += x;
    sy += s.seconds;
    sxx += x * x;
    sxy += x * s.seconds;
  }
  const double den = n * sxx - sx * sx;
  const double b = den > 0 ? (n * sxy - sx * sy) / den : (sx > 0 ? sy / sx : 0.0);
  return {den > 0 ? (sy - b * sx) / n : 0.0, b};
}

void run_step_times(const StepTimesOptions& o) {
  Graph g = [&] {
    try {
      return load_model(o.model);
    } catch (const InputError& e) {
      throw e.file().empty() ? e.with_file(o.model) : e;
    }
  }();
  const auto table = [&] {
    try {
      return time_training_steps(g, o.batches, o.repeats, o.seed, !o.per_sample);
    } catch (const InputError& e) {
      if (e.path().starts_with("batches")) throw InputError("", "--batches", e.message());
      throw e.file().empty() ? e.with_file(o.model) : e;
    }
  }();
  const auto [a, b] = fit_line(table);
  std::cout << fmt::format(
      "model {}: training step (forward, backward, SGD) on this host, fastest of {}; conv and fc {}\n",
      g.name(), o.repeats, o.per_sample ? "sample by sample" : "batched over the minibatch");
  const StepTime& first = table.front();
  const double first_per_sample = first.seconds / static_cast<double>(first.batch);
  TextTable t({"minibatch", "step ms", "ms per sample", fmt::format("per sample / at {}", first.batch),
               "line ms", "off the line"},
              {true, true, true, true, true, true});
  for (const auto& s : table) {
    const double line = a + b * static_cast<double>(s.batch);
    const double per_sample = s.seconds / static_cast<double>(s.batch);
    t.add_row({std::to_string(s.batch), fmt::format("{:.3f}", s.seconds * 1e3),
               fmt::format("{:.4f}", per_sample * 1e3), fmt::format("{:.3f}", per_sample / first_per_sample),
               fmt::format("{:.3f}", line * 1e3),
               fmt::format("{:+.1f}%", 100.0 * (s.seconds - line) / s.seconds)});
  }
  std::cout << t.str() << fmt::format("least squares: {:.4f} ms + {:.4f} ms per sample\n", a * 1e3, b * 1e3);
}

}  // namespace

void add_step_times_command(CLI::App& app) {
  auto o = std::make_shared<StepTimesOptions>();
  auto* cmd = app.add_subcommand(
      "step-times",
      "Time a real training step at several minibatch sizes (AdaLearner's lookup table, Fig. 3.7)");
  cmd->add_option("model", o->model, "Zoo name, model JSON file or ONNX file")->required();
  cmd->add_option("--batches", o->batches, "Minibatch sizes")
      ->delimiter(',')
      ->capture_default_str()
      ->check(at_least_one());
  cmd->add_option("--repeats", o->repeats, "Timed steps per size (the fastest is kept)")
      ->capture_default_str()
      ->check(at_least_one());
  cmd->add_option("--seed", o->seed, "Seed of the weights and inputs")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_flag("--per-sample", o->per_sample,
                "Run conv and fc layers sample by sample (the trainer's reference path) instead of batched");
  cmd->callback([o] { run_step_times(*o); });
}

}  // namespace coinfer::cli
