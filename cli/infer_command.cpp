// `coinfer infer MODEL [--seed S] [--input-seed S] [--threads N]`: one forward pass of a model on the
// host with real kernels, seeded weights and a seeded N(0, 1) input (functional mode).
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
};

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
  const auto inputs = fp.make_inputs(o.input_seed);
  start = std::chrono::steady_clock::now();
  const auto acts = fp.run(inputs, /*keep_all=*/false);
  const double forward_s = seconds_since(start);
  const Graph& graph = fp.graph();
  std::vector<std::string> in_shapes;
  for (auto i : graph.input_layers())
    in_shapes.push_back(graph.layer(i).name + " " + shape_to_string(graph.layer(i).output_shape));
  std::cout << fmt::format("model {}: {} layers, {} MACs, weights {} bytes (seed {}), input {} (seed {})\n",
                           graph.name(), graph.size(), format_count(graph.total_macs()),
                           format_count(fp.weight_bytes()), o.seed, fmt::join(in_shapes, ", "), o.input_seed);
  for (auto i : graph.output_layers()) print_output(graph.layer(i), acts[i]);
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
  cmd->add_option("model", o->model, "Zoo name or model JSON file")->required();
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
