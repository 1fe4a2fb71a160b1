// `coinfer make-trace digits|synthetic --output FILE [options]`: writes a per-frame trace for
// confidence-based offloading (format: schedulers/cbo/frame_trace.hpp). `digits` measures one on real
// classifiers and real images (schedulers/cbo/digits_trace.hpp); `synthetic` draws one from a seeded
// model (schedulers/cbo/synthetic_trace.hpp). A summary goes to stdout; the same options give a
// byte-identical file. `video` and `pan` (cli/video/make_trace_video.cpp, run as coinfer-video) write
// MobiEye's per-frame H.264 traces.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "cli/video_forward.hpp"
#include "schedulers/cbo/digits_trace.hpp"
#include "schedulers/cbo/synthetic_trace.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"

namespace coinfer::cli {
namespace {

// A generator's option error (path "npu-bits") as the CLI option's ("--npu-bits").
template <class Make>
auto as_cli_errors(Make make) {
  try {
    return make();
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError("", "--" + e.path(), e.message());
  }
}

std::string percent(double v) { return fmt::format("{:.1f}%", 100.0 * v); }

struct DigitsCli {
  cbo::DigitsTraceOptions o;
  std::string output;
};

void run_digits(const DigitsCli& c) {
  const auto t = as_cli_errors([&] { return cbo::make_digits_trace(c.o); });
  write_file_atomic(c.output, cbo::format_frame_trace(t.trace));
  const auto& s = t.summary;
  std::cout << fmt::format("{}: {} frames from {} ({} images trained on, seed {})\n", c.output,
                           t.trace.frames.size(), s.data, s.train_images, c.o.seed);
  const std::string detail =
      c.o.npu_detail_px < 8 ? fmt::format(", {} px of detail", c.o.npu_detail_px) : std::string();
  std::cout << fmt::format(
      "npu digits_mlp, {}-bit weights{}: accuracy {} (fp32 {}), mean confidence {:.3f}\n", c.o.npu_bits,
      detail, percent(s.npu_accuracy), percent(s.npu_fp32_accuracy), s.npu_mean_confidence);
  std::cout << "resolution  detail  mean PNG bytes  server accuracy (digits_cnn)\n";
  for (std::size_t r = 0; r < s.server_accuracy.size(); ++r)
    std::cout << fmt::format("{:>7} px  {:>3} px  {:>14.1f}  {:>8}\n", t.trace.resolutions_px[r],
                             s.detail_px[r], s.mean_size_bytes[r], percent(s.server_accuracy[r]));
}

void add_digits(CLI::App& parent) {
  auto c = std::make_shared<DigitsCli>();
  auto* cmd = parent.add_subcommand(
      "digits", "Measure a trace: a quantized MLP (NPU) and a CNN (server) on scikit-learn's 8x8 digits");
  cmd->add_option("--output,-o", c->output, "Trace CSV to write")->required();
  cmd->add_option("--seed", c->o.seed, "Seed of the split, the weights and the training order")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("--trace-fraction", c->o.trace_fraction, "Fraction of the images held out as frames")
      ->capture_default_str();
  cmd->add_option("--npu-bits", c->o.npu_bits, "Bits of the NPU model's weights (2..8)")
      ->capture_default_str();
  cmd->add_option("--npu-detail-px", c->o.npu_detail_px,
                  "Pixels of detail a side the NPU sees (1..8; fewer: a less accurate NPU)")
      ->capture_default_str();
  cmd->add_option("--npu-epochs", c->o.npu_epochs, "Training epochs of the NPU model")
      ->check(at_least_one())
      ->capture_default_str();
  cmd->add_option("--server-epochs", c->o.server_epochs, "Training epochs of the server model")
      ->check(at_least_one())
      ->capture_default_str();
  cmd->add_option("--frames-per-video", c->o.frames_per_video, "Frames per pseudo-video")
      ->check(at_least_one())
      ->capture_default_str();
  cmd->add_option("--resolutions", c->o.resolutions_px, "Offload resolutions in px, increasing")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--data", c->o.data, "The digits CSV (default: python3-sklearn's copy)");
  cmd->callback([c] { run_digits(*c); });
}

struct SyntheticCli {
  cbo::SyntheticTraceOptions o;
  std::vector<double> logit_range{-1.0, 6.0}, miscalibration{0.45, -0.3};
  std::string output;
};

// LO,HI or SLOPE,OFFSET: exactly two numbers.
void pair_into(const std::vector<double>& v, const char* option, double& first, double& second) {
  if (v.size() != 2)
    throw InputError("", option, fmt::format("expected two numbers separated by a comma, got {}", v.size()));
  first = v[0];
  second = v[1];
}

void run_synthetic(SyntheticCli c) {
  pair_into(c.logit_range, "--logit-range", c.o.logit_lo, c.o.logit_hi);
  pair_into(c.miscalibration, "--miscalibration", c.o.slope, c.o.offset);
  const auto t = as_cli_errors([&] { return cbo::make_synthetic_trace(c.o); });
  write_file_atomic(c.output, cbo::format_frame_trace(t));
  std::cout << fmt::format("{}: {} synthetic frames ({} videos x {}, seed {})\n", c.output, t.frames.size(),
                           c.o.videos, c.o.frames_per_video, c.o.seed);
}

void add_synthetic(CLI::App& parent) {
  auto c = std::make_shared<SyntheticCli>();
  auto* cmd = parent.add_subcommand("synthetic", "Draw a seeded synthetic trace (nothing measured)");
  cmd->add_option("--output,-o", c->output, "Trace CSV to write")->required();
  cmd->add_option("--seed", c->o.seed, "Seed of every draw")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("--videos", c->o.videos, "Videos")->check(at_least_one())->capture_default_str();
  cmd->add_option("--frames-per-video", c->o.frames_per_video, "Frames per video")
      ->check(at_least_one())
      ->capture_default_str();
  cmd->add_option("--logit-range", c->logit_range, "LO,HI: confidence = sigmoid(z), z ~ U(LO, HI)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--miscalibration", c->miscalibration,
                  "SLOPE,OFFSET: the local answer is right with probability sigmoid(SLOPE z + OFFSET)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--resolutions", c->o.resolutions_px, "Offload resolutions in px, increasing")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--accuracy-per-resolution", c->o.server_accuracy,
                  "Server accuracy per resolution, in [0, 1]")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--bytes-per-pixel", c->o.bytes_per_pixel, "Mean frame bytes per pixel")
      ->capture_default_str();
  cmd->add_option("--size-jitter", c->o.size_jitter, "Size factor drawn from U(1 - J, 1 + J), J in [0, 1)")
      ->capture_default_str();
  cmd->callback([c] { run_synthetic(*c); });
}

}  // namespace

void add_make_trace_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "make-trace", "Write a per-frame trace: CBO's (digits, synthetic) or a video's (video, pan)");
  cmd->require_subcommand(1);
  add_digits(*cmd);
  add_synthetic(*cmd);
  add_make_trace_video_forwarders(*cmd);
}

}  // namespace coinfer::cli
