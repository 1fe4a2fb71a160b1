// `coinfer png-wire MODEL [--seed S] [--weights-file F] [--relu-zero-ratio Z] [--csv FILE]`: JointDNN's
// per-layer zero ratio (ZR) and PNG compression ratio (CR) of a model's conv-shaped activations ([JointDNN
// §4.2, Fig. 14]), from a real forward pass and the real PNG kernel. Kernel times are left out, so
// the output is the same on every run.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "partitioners/jointdnn/png_wire.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct PngWireCliOptions {
  std::string model;
  std::uint64_t seed = 1;
  std::string weights_file;
  std::optional<double> relu_zero_ratio;
  std::string csv;
};

void run_png_wire(const PngWireCliOptions& o) {
  const Graph g = load_model(o.model);
  const auto wire = jointdnn::measure_png_wire(
      g, {o.seed, o.weights_file, "--weights-file", 1, o.relu_zero_ratio, "--relu-zero-ratio"});
  TextTable t({"layer", "fp32 bytes", "png bytes", "ZR %", "CR"}, {false, true, true, true, true});
  std::string csv = "layer,position,fp32_bytes,png_bytes,zero_ratio,cr\n";
  double cr_sum = 0.0, cr_max = 0.0;
  int n = 0;
  for (std::size_t k = 0; k < wire.size(); ++k) {
    const auto& w = wire[k];
    if (!w.compressed) continue;
    t.add_row({w.name, format_count(static_cast<std::int64_t>(w.raw_bytes)),
               format_count(static_cast<std::int64_t>(w.png_bytes)),
               fmt::format("{:.1f}", 100 * w.zero_ratio), fmt::format("{:.2f}", w.ratio_vs_8bit)});
    csv += fmt::format("{},{},{},{},{:.6f},{:.6f}\n", w.name, k, w.raw_bytes, w.png_bytes, w.zero_ratio,
                       w.ratio_vs_8bit);
    cr_sum += w.ratio_vs_8bit;
    cr_max = std::max(cr_max, w.ratio_vs_8bit);
    ++n;
  }
  std::cout << fmt::format(
      "model {}: PNG on the wire (8-bit quantization, channels tiled), weights {}{}\n", g.name(),
      o.weights_file.empty() ? fmt::format("seeded random (seed {})", o.seed) : o.weights_file,
      o.relu_zero_ratio ? fmt::format(", {:g} of every conv relu's output zeroed", *o.relu_zero_ratio) : "");
  std::cout << t.str();
  if (n > 0)
    std::cout << fmt::format(
        "CR over {} conv-shaped layers: mean {:.2f}, max {:.2f} (paper, trained "
        "weights: mean 3.5, max 5.8)\n",
        n, cr_sum / n, cr_max);
  if (!o.csv.empty()) {
    try {
      write_file_atomic(o.csv, csv);
    } catch (const Error&) {
      throw InputError(o.csv, "--csv", "cannot write the file");
    }
  }
}

}  // namespace

void add_png_wire_command(CLI::App& app) {
  auto o = std::make_shared<PngWireCliOptions>();
  auto* cmd = app.add_subcommand(
      "png-wire",
      "Per-layer zero ratio and PNG compression ratio of a model's activations (JointDNN Fig. 14)");
  cmd->add_option("model", o->model, "Zoo name, model JSON file or ONNX file")->required();
  cmd->add_option("--seed", o->seed, "Seed of the weights and the input")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("--weights-file", o->weights_file,
                  "Raw float32 weights (format: partitioners/jointdnn/png_wire.hpp) instead of seeded ones");
  cmd->add_option("--relu-zero-ratio", o->relu_zero_ratio,
                  "Zero this fraction of every conv relu's output, by lowering its bias (trained CNNs: "
                  "0.5 to 0.9, JointDNN sec. 4.2)")
      ->check(CLI::Range(0.01, 0.99));
  cmd->add_option("--csv", o->csv, "Also write the table as CSV");
  cmd->callback([o] { run_png_wire(*o); });
}

}  // namespace coinfer::cli
