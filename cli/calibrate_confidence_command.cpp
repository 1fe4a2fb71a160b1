// `coinfer calibrate-confidence TRACE [--method platt,isotonic,temperature] [--train-fraction F]
// [--seed S] [--json FILE]`: Tan & Cao's Table I on a per-frame trace (format:
// schedulers/cbo/frame_trace.hpp). The frames are split by a seeded shuffle, each method is fitted
// on the training part, and ECE / MCE over 10 equal-width bins are printed for the uncalibrated
// scores and each fit, on both parts; --json also writes the fitted parameters and reliability data.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "schedulers/cbo/calibration_study.hpp"
#include "schedulers/cbo/frame_trace.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct ConfidenceOptions {
  std::string trace;
  std::vector<std::string> methods{"platt"};
  double train_fraction = 0.5;
  std::uint64_t seed = 1;
  std::string json;
};

void check_train_fraction(const ConfidenceOptions& o) {
  if (!(o.train_fraction > 0 && o.train_fraction < 1))
    throw InputError("", "--train-fraction",
                     fmt::format("expected a number in (0, 1), got {}", o.train_fraction));
}

void check_split(const ConfidenceOptions& o, std::size_t frames) {
  const std::size_t train = cbo::train_frame_count(frames, o.train_fraction);
  if (train == 0 || train >= frames)
    throw InputError(o.trace, "",
                     fmt::format("{} frames with --train-fraction {} leave {} for training and {} held out; "
                                 "both parts need at least one frame",
                                 frames, o.train_fraction, train, frames - std::min(train, frames)));
}

std::string cell(double v) { return fmt::format("{:.4f}", v); }

void print_table(const ConfidenceOptions& o, const cbo::FrameSplit& split,
                 const std::vector<cbo::CalibrationRow>& rows) {
  std::cout << fmt::format(
      "{}: {} frames, {} for training and {} held out (seed {}); ECE and MCE over 10 bins\n", o.trace,
      split.train.size() + split.held_out.size(), split.train.size(), split.held_out.size(), o.seed);
  TextTable t({"method", "train ECE", "train MCE", "held-out ECE", "held-out MCE"},
              {false, true, true, true, true});
  for (const auto& r : rows)
    t.add_row({r.method, cell(cbo::expected_calibration_error(r.train_bins)),
               cell(cbo::maximum_calibration_error(r.train_bins)),
               cell(cbo::expected_calibration_error(r.held_out_bins)),
               cell(cbo::maximum_calibration_error(r.held_out_bins))});
  std::cout << t.str();
}

Json report_json(const ConfidenceOptions& o, const cbo::FrameSplit& split,
                 const std::vector<cbo::CalibrationRow>& rows) {
  Json results = Json::array();
  for (const auto& r : rows) results.push_back(cbo::calibration_row_json(r));
  return {{"trace", o.trace},
          {"train_fraction", o.train_fraction},
          {"seed", o.seed},
          {"train_frames", split.train.size()},
          {"held_out_frames", split.held_out.size()},
          {"bins", "10 equal-width bins (lower, upper], a confidence of 0 in the first"},
          {"results", results}};
}

void run_calibrate_confidence(const ConfidenceOptions& o) {
  cbo::CalibratorRegistry registry("calibration method");
  cbo::register_confidence_calibrators(registry);
  const auto methods = cbo::create_calibrators(o.methods, registry);
  check_train_fraction(o);
  const cbo::FrameTrace trace = cbo::read_frame_trace(o.trace);
  for (const auto& [name, c] : methods)
    if (c->needs_feature_vectors()) cbo::require_feature_vectors(trace, o.trace, name);
  check_split(o, trace.frames.size());
  const auto split = cbo::split_frames(trace.local(), o.train_fraction, o.seed);
  const auto rows = cbo::calibration_study(split, methods);
  print_table(o, split, rows);
  if (!o.json.empty()) write_file_atomic(o.json, report_json(o, split, rows).dump(2) + "\n");
}

}  // namespace

void add_calibrate_confidence_command(CLI::App& app) {
  auto o = std::make_shared<ConfidenceOptions>();
  auto* cmd = app.add_subcommand(
      "calibrate-confidence",
      "Fit confidence calibration (Platt, Platt on the feature vector, isotonic, temperature) on a per-frame "
      "trace; ECE / MCE held out");
  cmd->add_option("trace", o->trace,
                  "Per-frame trace CSV (columns confidence, correct; README 'Per-frame traces')")
      ->required();
  cmd->add_option(
         "--method", o->methods,
         "Methods, comma-separated: platt, platt-vector (needs the trace's score_<k> and label columns), "
         "isotonic, temperature")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--train-fraction", o->train_fraction, "Fraction of the frames used for fitting, in (0, 1)")
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed of the train / held-out shuffle")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("--json", o->json, "Also write the fits and reliability data (per bin) to this JSON file");
  cmd->callback([o] { run_calibrate_confidence(*o); });
}

}  // namespace coinfer::cli
