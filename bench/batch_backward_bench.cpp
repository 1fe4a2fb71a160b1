// Batched backward kernels (sim/kernels/batched.hpp) against B single-sample backward calls, and the
// training step they make, measured on this host (AdaLearner Fig. 3.7: a minibatch's time is not linear
// for a small MLP).
//
// First table: for the fc layers of mxnet_mlp and mxnet_lenet and the conv layers of mxnet_lenet and
// the CIFAR-10 ConvNet, per batch size B, the time of one batched backward (input gradient, weight and
// bias gradients summed over the batch), B x the time of one single-sample backward, and their ratio
// (1 = no gain from batching), then the same ratio for the forward (forward_layer_batch against run_layer).
// Second table: the whole training step (sim/functional/step_timer.hpp) of the three networks, batched and
// sample by sample, as t(B) / (B t(1)) (1 = linear from the first sample). Each kernel time is the fastest of
// --repeats rounds of at least 20 ms; each step time the fastest of
// --repeats steps.
//
//     ./build/bench/batch_backward_bench [--repeats N] [--max-batch B]
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "seconds_per_call.hpp"
#include "sim/functional/step_timer.hpp"
#include "sim/kernels/batched.hpp"
#include "sim/models/zoo.hpp"
#include "sim/report/table.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

Shape with_batch(std::int64_t b, const Shape& sample) {
  Shape s{b};
  s.insert(s.end(), sample.begin(), sample.end());
  return s;
}

void kernel_rows(TextTable& t, const std::string& model, const std::string& name, std::int64_t max_batch,
                 int repeats) {
  Graph g = build_zoo_model(model);
  const Layer& l = g.layer_by_name(name);
  const Shape& in = g.layer_by_name(l.inputs.at(0)).output_shape;
  const LayerWeights w = make_weights(l, in, 1);
  const Tensor x = random_normal(in, 2), y = run_layer(l, {&x}, w), dy = random_normal(y.shape, 3);
  const double single_s = bench::seconds_per_call([&] { (void)backward_layer(l, {&x}, y, w, dy); }, repeats);
  const double forward_s = bench::seconds_per_call([&] { (void)run_layer(l, {&x}, w); }, repeats);
  for (std::int64_t b = 1; b <= max_batch; b *= 2) {
    const Tensor xb = random_normal(with_batch(b, in), 4), dyb = random_normal(with_batch(b, y.shape), 5);
    const double batched_s =
        bench::seconds_per_call([&] { (void)backward_layer_batch(l, xb, w, dyb, b); }, repeats);
    const double reference_s = static_cast<double>(b) * single_s;
    const double forward_ratio =
        bench::seconds_per_call([&] { (void)forward_layer_batch(l, xb, w, b); }, repeats) /
        (static_cast<double>(b) * forward_s);
    t.add_row({model + " " + name, std::string(op_name(l.op)), std::to_string(b),
               fmt::format("{:.3f}", batched_s * 1e3), fmt::format("{:.3f}", reference_s * 1e3),
               fmt::format("{:.3f}", batched_s / reference_s), fmt::format("{:.3f}", forward_ratio)});
  }
  t.add_separator();
}

void step_rows(TextTable& t, const std::string& model, std::int64_t max_batch, int repeats) {
  std::vector<std::int64_t> batches;
  for (std::int64_t b = 1; b <= max_batch; b *= 2) batches.push_back(b);
  const Graph g = build_zoo_model(model);
  for (const bool batched : {true, false}) {
    const auto steps = time_training_steps(g, batches, repeats, 1, batched);
    for (const auto& s : steps)
      t.add_row({model, batched ? "batched" : "per sample", std::to_string(s.batch),
                 fmt::format("{:.3f}", s.seconds * 1e3),
                 fmt::format("{:.3f}", s.seconds / (static_cast<double>(s.batch) * steps.front().seconds))});
    t.add_separator();
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t max_batch = 128;
  int repeats = 3;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[++i]));
    if (std::strcmp(argv[i], "--max-batch") == 0) max_batch = std::max(1, std::atoi(argv[++i]));
  }
  TextTable k(
      {"layer", "kind", "B", "batched ms", "B x single ms", "batched / (B x single)", "forward ratio"},
      {false, false, true, true, true, true, true});
  for (const auto& [model, name] : std::vector<std::pair<std::string, std::string>>{{"mxnet_mlp", "fc1"},
                                                                                    {"mxnet_mlp", "fc2"},
                                                                                    {"mxnet_lenet", "fc1"},
                                                                                    {"mxnet_lenet", "conv1"},
                                                                                    {"mxnet_lenet", "conv2"},
                                                                                    {"convnet", "conv1"},
                                                                                    {"convnet", "conv2"}})
    kernel_rows(k, model, name, max_batch, repeats);
  std::cout << "backward (and forward) kernels, batched against B single-sample calls\n" << k.str() << "\n";
  TextTable s({"model", "conv and fc", "B", "step ms", "t(B) / (B t(1))"}, {false, false, true, true, true});
  for (const std::string model : {"mxnet_mlp", "mxnet_lenet", "convnet"})
    step_rows(s, model, max_batch, repeats);
  std::cout << "training step (forward, backward, SGD)\n" << s.str();
  return 0;
}
