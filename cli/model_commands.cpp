// `coinfer models`, `coinfer model show|export [--format json|onnx]`, `coinfer validate`.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/graph_json.hpp"
#include "sim/kernels/layer_runner.hpp"
#include "sim/models/zoo.hpp"
#include "sim/onnx/onnx_export.hpp"
#include "sim/onnx/onnx_import.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

// 416520 -> "416.5 K", 300774272 -> "300.8 M", 15470264320 -> "15.47 G".
std::string format_macs(std::int64_t macs) {
  const auto v = static_cast<double>(macs);
  if (v < 1e6) return fmt::format("{:.1f} K", v / 1e3);
  if (v < 1e9) return fmt::format("{:.1f} M", v / 1e6);
  return fmt::format("{:.2f} G", v / 1e9);
}

void print_zoo() {
  TextTable t({"model", "input", "layers", "params", "MACs", "architecture"},
              {false, false, true, true, true, false});
  for (const auto& e : zoo()) {
    const Graph g = e.build();
    t.add_row({e.name, shape_to_string(g.layer(g.input_layers().front()).output_shape),
               std::to_string(g.size()), format_count(g.total_params()), format_macs(g.total_macs()),
               e.summary});
  }
  std::cout << t.str();
}

void print_layers(const Graph& g) {
  TextTable t({"layer", "op", "output shape", "params", "MACs", "output bytes"},
              {false, false, false, true, true, true});
  std::int64_t bytes = 0;
  for (auto i : g.topological_order()) {
    const auto& l = g.layer(i);
    bytes += l.output_bytes;
    t.add_row({l.name, std::string(op_name(l.op)), shape_to_string(l.output_shape), format_count(l.params),
               format_count(l.macs), format_count(l.output_bytes)});
  }
  t.add_separator();
  t.add_row({"total", "", fmt::format("{} layers", g.size()), format_count(g.total_params()),
             format_count(g.total_macs()), format_count(bytes)});
  std::cout << "model " << g.name() << "\n" << t.str();
}

struct ExportOptions {
  std::string model, format = "json", output;
  std::uint64_t seed = 1;
};

void export_model(const ExportOptions& o) {
  if (o.format != "json" && o.format != "onnx")
    throw InputError("", "--format", fmt::format("unknown format '{}'; expected json or onnx", o.format));
  if (o.format == "onnx" && o.output.empty())
    throw InputError("", "--output", "--format onnx writes a binary file: name it with --output FILE");
  const Graph g = load_model(o.model);
  if (o.format == "json") {
    const std::string text = graph_to_json(g).dump(2) + "\n";
    if (o.output.empty())
      std::cout << text;
    else
      write_file_atomic(o.output, text);
    return;
  }
  const LayerWeightSource weights = [&](const Layer& l, const Shape& in) {
    return kernels::file_weights(g, l, in, o.seed);
  };
  try {
    write_file_atomic(o.output, [&](std::ostream& out) { write_onnx(g, weights, out); });
  } catch (const InputError& e) {
    throw e.with_file(o.model);
  }
  std::cerr << fmt::format("wrote {}: model '{}', {} layers, {} params, ONNX opset {}\n", o.output, g.name(),
                           g.size(), format_count(g.total_params()), kOnnxExportOpset);
}

}  // namespace

void add_model_commands(CLI::App& app) {
  app.add_subcommand("models", "List the model zoo with parameters and MACs")->callback(print_zoo);

  auto* model = app.add_subcommand("model", "Inspect or export a model");
  model->require_subcommand(1);

  auto show_model = std::make_shared<std::string>();
  auto show_json = std::make_shared<bool>(false);
  auto* show = model->add_subcommand("show", "Layer table of a zoo model, JSON model file or ONNX file");
  show->add_option("model", *show_model, "Zoo name, model JSON file or ONNX file")->required();
  show->add_flag("--json", *show_json, "Print the layer table as JSON");
  show->callback([show_model, show_json] {
    const Graph g = load_model(*show_model);
    if (*show_json)
      std::cout << graph_summary_json(g).dump(2) << "\n";
    else
      print_layers(g);
  });

  auto ex = std::make_shared<ExportOptions>();
  auto* exp = model->add_subcommand("export",
                                    "Write a model as coinfer JSON (its structure) or as ONNX (structure and "
                                    "weights: an ONNX file's own, else seeded as `coinfer infer --seed`)");
  exp->add_option("model", ex->model, "Zoo name, model JSON file or ONNX file")->required();
  exp->add_option("--format", ex->format, "json or onnx")->capture_default_str();
  exp->add_option("-o,--output", ex->output, "File to write (JSON: stdout without it)");
  exp->add_option("--seed", ex->seed, "Seed of the weights an ONNX export writes")->capture_default_str();
  exp->callback([ex] { export_model(*ex); });

  auto validate_file = std::make_shared<std::string>();
  auto* validate =
      app.add_subcommand("validate", "Check a model JSON or ONNX file and report the first problem");
  validate->add_option("file", *validate_file, "File to check")->required();
  validate->callback([validate_file] {
    const Graph g =
        is_onnx_file(*validate_file) ? import_onnx(*validate_file) : load_model_file(*validate_file);
    std::cout << fmt::format("{}: ok (model '{}', {} layers, {} params)\n", *validate_file, g.name(),
                             g.size(), format_count(g.total_params()));
  });
}

}  // namespace coinfer::cli
