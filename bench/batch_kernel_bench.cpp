// Batched kernels (sim/kernels/batched.hpp) against B single-input calls, measured on this host
// (JointDNN Fig. 10b: a batch costs less than B x one input where batching changes the work's shape).
//
// For AlexNet's fc6 / fc7 (GEMV at batch 1, one GEMM over B columns batched) and conv2 / conv4 (one
// GEMM over the B samples' im2col columns side by side) it prints, per batch size B, the time of one
// batched call, B x the time of one single-input call, and their ratio (1 = no gain from batching).
// Each time is the fastest of --repeats rounds, a round calling the kernel until 20 ms have passed.
//
//     ./build/bench/batch_kernel_bench [--repeats N] [--max-batch B]
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "seconds_per_call.hpp"
#include "sim/kernels/batched.hpp"
#include "sim/models/zoo.hpp"
#include "sim/report/table.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

int g_repeats = 3;

double seconds_per_call(const std::function<void()>& fn) { return bench::seconds_per_call(fn, g_repeats); }

}  // namespace

int main(int argc, char** argv) {
  std::int64_t max_batch = 32;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--repeats") == 0) g_repeats = std::max(1, std::atoi(argv[++i]));
    if (std::strcmp(argv[i], "--max-batch") == 0) max_batch = std::max(1, std::atoi(argv[++i]));
  }
  const Graph g = build_zoo_model("alexnet");
  TextTable t({"layer", "kind", "B", "batched ms", "B x single ms", "batched / (B x single)"},
              {false, false, true, true, true, true});
  for (const std::string name : {"fc6", "fc7", "conv2", "conv4"}) {
    const Layer& l = g.layer_by_name(name);
    const Shape& in = g.layer_by_name(l.inputs.at(0)).output_shape;
    const LayerWeights w = make_weights(l, in, 1);
    const Tensor x = random_normal(in, 2);
    const double single_s = seconds_per_call([&] { (void)run_layer(l, {&x}, w); });
    for (std::int64_t b = 1; b <= max_batch; b *= 2) {
      Shape shape{b};
      shape.insert(shape.end(), in.begin(), in.end());
      const Tensor xb = random_normal(shape, 3);
      const double batched_s = seconds_per_call([&] { (void)run_layer_batch(l, {&xb}, w, b); });
      const double reference_s = static_cast<double>(b) * single_s;
      t.add_row({name, std::string(op_name(l.op)), std::to_string(b), fmt::format("{:.3f}", batched_s * 1e3),
                 fmt::format("{:.3f}", reference_s * 1e3), fmt::format("{:.3f}", batched_s / reference_s)});
    }
    t.add_separator();
  }
  std::cout << t.str();
  return 0;
}
