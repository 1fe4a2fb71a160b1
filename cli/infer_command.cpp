// `coinfer infer MODEL [--seed S] [--input-seed S] [--input x.npy] [--output y.npy] [--threads N]`: one
// forward pass of a model on the host with real kernels (functional mode): seeded weights, or the
// weights an ONNX file holds; a seeded N(0, 1) input, or the given .npy files.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <numeric>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/functional/forward_pass.hpp"
#include "sim/functional/npy.hpp"
#include "sim/kernels/gemm.hpp"
#include "sim/models/zoo.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct InferOptions {
  std::string model;
  std::uint64_t seed = 1;
  std::uint64_t input_seed = 1;
  int threads = 1;
  std::vector<std::string> input_files;   // one .npy per input layer, in order
  std::vector<std::string> output_files;  // one .npy per output layer, in order
};

// The input tensors from .npy files: each holds the input layer's shape, or it with a leading batch 1.
std::vector<Tensor> read_inputs(const Graph& g, const std::vector<std::string>& files) {
  const auto ins = g.input_layers();
  if (files.size() != ins.size())
    throw InputError("", "--input",
                     fmt::format("model '{}' has {} input{}, {} --input file{} given", g.name(), ins.size(),
                                 ins.size() == 1 ? "" : "s", files.size(), files.size() == 1 ? "" : "s"));
  std::vector<Tensor> tensors;
  for (std::size_t i = 0; i < ins.size(); ++i) {
    Tensor t = read_npy(files[i]);
    const Shape& want = g.layer(ins[i]).output_shape;
    if (t.shape.size() == want.size() + 1 && t.shape[0] == 1) t.shape.erase(t.shape.begin());
    if (t.shape != want)
      throw InputError(files[i], "",
                       fmt::format("holds {}; input '{}' takes {} (or [1, ...] with a batch of one)",
                                   shape_to_string(t.shape), g.layer(ins[i]).name, shape_to_string(want)));
    tensors.push_back(std::move(t));
  }
  return tensors;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Indices of the k largest elements, largest first (ties: lower index first).
std::vector<std::size_t> top_k(const Tensor& t, std::size_t k) {
  std::vector<std::size_t> idx(t.data.size());
  std::iota(idx.begin(), idx.end(), 0);
  k = std::min(k, idx.size());
  std::partial_sort(idx.begin(), idx.begin() + static_cast<long>(k), idx.end(),
                    [&](std::size_t a, std::size_t b) {
                      return t.data[a] > t.data[b] || (t.data[a] == t.data[b] && a < b);
                    });
  idx.resize(k);
  return idx;
}

void print_output(const Layer& l, const Tensor& out) {
  double abs_sum = 0.0;
  for (float v : out.data) abs_sum += std::abs(v);
  std::cout << fmt::format("output '{}' {}: sum {:.9g}, sum|x| {:.9g}\n", l.name, shape_to_string(out.shape),
                           tensor_sum(out), abs_sum);
  std::vector<std::string> top;
  for (auto i : top_k(out, 5)) top.push_back(fmt::format("{}:{:.6g}", i, out.data[i]));
  std::cout << fmt::format("  top-5 (flat index:value): {}\n", fmt::join(top, "  "));
}

void run_infer(const InferOptions& o) {
  kernels::set_kernel_threads(o.threads);
  Graph g = load_model(o.model);
  auto start = std::chrono::steady_clock::now();
  // The forward pass checks first that the model fits this host's memory (an InputError naming the
  // model file and the largest layer, instead of std::bad_alloc midway).
  const ForwardPass fp = [&] {
    try {
      return ForwardPass(std::move(g), o.seed);
    } catch (const InputError& e) {
      throw e.file().empty() ? e.with_file(o.model) : e;
    }
  }();
  const double weights_s = seconds_since(start);
  const auto inputs =
      o.input_files.empty() ? fp.make_inputs(o.input_seed) : read_inputs(fp.graph(), o.input_files);
  if (!o.output_files.empty() && o.output_files.size() != fp.graph().output_layers().size())
    throw InputError("", "--output",
                     fmt::format("model '{}' has {} output(s), {} --output file(s) given", fp.graph().name(),
                                 fp.graph().output_layers().size(), o.output_files.size()));
  start = std::chrono::steady_clock::now();
  const auto acts = fp.run(inputs, /*keep_all=*/false);
  const double forward_s = seconds_since(start);
  const Graph& graph = fp.graph();
  std::vector<std::string> in_shapes;
  for (auto i : graph.input_layers())
    in_shapes.push_back(graph.layer(i).name + " " + shape_to_string(graph.layer(i).output_shape));
  const std::string weights_from =
      graph.stored_weights() ? "from the model file" : fmt::format("seed {}", o.seed);
  const std::string input_from = o.input_files.empty() ? fmt::format("seed {}", o.input_seed)
                                                       : fmt::format("{}", fmt::join(o.input_files, ", "));
  std::cout << fmt::format("model {}: {} layers, {} MACs, weights {} bytes ({}), input {} ({})\n",
                           graph.name(), graph.size(), format_count(graph.total_macs()),
                           format_count(fp.weight_bytes()), weights_from, fmt::join(in_shapes, ", "),
                           input_from);
  for (auto i : graph.output_layers()) print_output(graph.layer(i), acts[i]);
  for (std::size_t k = 0; k < o.output_files.size(); ++k) {
    Tensor out = acts[graph.output_layers()[k]];
    out.shape.insert(out.shape.begin(), 1);  // the batch of one a framework's output has
    write_npy(o.output_files[k], out);
  }
  std::cout << fmt::format(
      "forward pass {:.3f} ms ({:.2f} GMAC/s) on {} thread{}; weight generation {:.3f} s\n", forward_s * 1e3,
      static_cast<double>(graph.total_macs()) / forward_s / 1e9, o.threads, o.threads == 1 ? "" : "s",
      weights_s);
  std::cout << fmt::format("kernels: {}\n", kernels::kernel_build_id());
}

}  // namespace

void add_infer_command(CLI::App& app) {
  auto o = std::make_shared<InferOptions>();
  auto* cmd =
      app.add_subcommand("infer", "Run one forward pass of a model on the host (seeded weights and input)");
  cmd->add_option("model", o->model, "Zoo name, model JSON file or ONNX file")->required();
  cmd->add_option("--input", o->input_files,
                  "A float32 .npy file per model input, in order (default: seeded)");
  cmd->add_option("--output", o->output_files, "A .npy file to write per model output, in order");
  cmd->add_option("--seed", o->seed, "Seed of the weights")->check(unsigned_integer())->capture_default_str();
  cmd->add_option("--input-seed", o->input_seed, "Seed of the N(0,1) input")
      ->check(unsigned_integer())
      ->capture_default_str();
  cmd->add_option("--threads", o->threads, "Kernel threads")
      ->capture_default_str()
      ->check(integer_in(1, 256));
  cmd->callback([o] { run_infer(*o); });
}

}  // namespace coinfer::cli
