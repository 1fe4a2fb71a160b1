// Backward kernels against the forward GEMMs they mirror, and AdaLearner's gradient codecs.
//
// For the conv and fc layers of the networks AdaLearner trained (MXNet's LeNet and MLP, the CIFAR
// ConvNet) and one VGG-16 convolution it prints the forward time, the backward time (input and weight
// gradients together: two GEMMs of the forward's size, so about 2x is the expectation), and their
// ratio. Then, for those layers' weight gradients, the 1-bit encoder with error feedback (eq. 3.9-3.10),
// its decoder, and TernGrad's encoder: time, speed in bits of fp32 gradient per second (S_q and S_uq of
// eq. 3.12) and the ratio to the layer's forward time. Each time is the fastest of `--repeats` rounds,
// each round repeating the call until 20 ms have passed (host timings; a device's are these times the
// calibration's scale). A second table times the backward kernels of Chair and Deep Speech's layer
// kinds (transposed convolution, upsampling, a bidirectional LSTM) against their forward the same way.
//
//     ./build/bench/backward_bench [--repeats N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "seconds_per_call.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/lstm.hpp"
#include "sim/kernels/quantize.hpp"
#include "sim/kernels/tensor_ops.hpp"
#include "sim/report/table.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

int g_repeats = 5;

double seconds_per_call(const std::function<void()>& fn) { return bench::seconds_per_call(fn, g_repeats); }

std::string ms(double s) { return fmt::format("{:.3f}", s * 1e3); }

struct Layer {
  std::string name;
  Tensor x, w;       // input and weight
  bool conv = true;  // else fc
  ConvParams params;
};

std::vector<Layer> layers() {
  auto conv = [](std::string name, std::int64_t c, std::int64_t hw, std::int64_t oc, std::int64_t k,
                 std::int64_t pad) {
    Layer l{std::move(name), random_normal({c, hw, hw}, 1), random_normal({oc, c, k, k}, 2), true, {}};
    l.params.padding = {pad, pad};
    return l;
  };
  auto fc = [](std::string name, std::int64_t in, std::int64_t out) {
    return Layer{std::move(name), random_normal({in}, 3), random_normal({out, in}, 4), false, {}};
  };
  return {conv("mxnet_lenet conv1 1x28x28 -> 20", 1, 28, 20, 5, 0),
          conv("mxnet_lenet conv2 20x12x12 -> 50", 20, 12, 50, 5, 0),
          conv("convnet conv2 32x16x16 -> 32", 32, 16, 32, 5, 2),
          conv("vgg16 conv3_1 128x56x56 -> 256", 128, 56, 256, 3, 1),
          fc("mxnet_lenet fc1 800 -> 500", 800, 500),
          fc("mxnet_mlp fc1 784 -> 128", 784, 128),
          fc("vgg16 fc7 4096 -> 4096", 4096, 4096)};
}

void bench_backward(const std::vector<Layer>& ls, std::vector<double>& forward_s) {
  TextTable t({"layer (one sample)", "forward ms", "backward ms", "backward / forward"},
              {false, true, true, true});
  for (const auto& l : ls) {
    const Tensor bias = random_normal({l.w.shape[0]}, 5);
    const Tensor y = l.conv ? conv2d(l.x, l.w, bias, l.params) : fully_connected(l.x, l.w, bias);
    const Tensor dy = random_normal(y.shape, 6);
    const double f = seconds_per_call(
        [&] { l.conv ? conv2d(l.x, l.w, bias, l.params) : fully_connected(l.x, l.w, bias); });
    const double b = seconds_per_call([&] {
      l.conv ? conv2d_backward(l.x, l.w, true, dy, l.params) : fully_connected_backward(l.x, l.w, true, dy);
    });
    forward_s.push_back(f);
    t.add_row({l.name, ms(f), ms(b), fmt::format("{:.2f}", b / f)});
  }
  std::printf("%s\n", t.str().c_str());
}

// Chair's fc5 (8x8 transposed convolution from 1x1, at a quarter of its channels) and an unpooling, and
// a bidirectional LSTM over 100 steps (Deep Speech's brnn4 at 256 of its 2048 units).
void bench_other_kinds() {
  TextTable t({"layer (one sample)", "forward ms", "backward ms", "backward / forward"},
              {false, true, true, true});
  const auto row = [&](const std::string& name, const std::function<void()>& fwd,
                       const std::function<void()>& bwd) {
    const double f = seconds_per_call(fwd), b = seconds_per_call(bwd);
    t.add_row({name, ms(f), ms(b), fmt::format("{:.2f}", b / f)});
  };
  const ConvParams p;
  const Tensor dx = random_normal({256, 1, 1}, 9), dw = random_normal({256, 64, 8, 8}, 10), db({64});
  const Tensor ddy = random_normal({64, 8, 8}, 11);
  row(
      "chair fc5/4 deconv 256x1x1 -> 64x8x8", [&] { conv_transpose2d(dx, dw, db, p); },
      [&] { conv_transpose2d_backward(dx, dw, true, ddy, p); });
  const Tensor ux = random_normal({92, 32, 32}, 12), udy = random_normal({92, 64, 64}, 13);
  row(
      "chair uconv3.unpool 92x32x32 nearest 2x",
      [&] {
        upsample(ux, {2, 2}, "nearest");
      },
      [&] {
        upsample_backward(ux.shape, udy, {2, 2}, "nearest");
      });
  constexpr std::int64_t kSteps = 100, kIn = 256, kHidden = 256;
  const Tensor lx = random_normal({kSteps, kIn}, 14), ldy = random_normal({kSteps, 2 * kHidden}, 15);
  std::vector<LstmCellWeights> cells;
  for (std::uint64_t d = 0; d < 2; ++d)
    cells.push_back({random_normal({4 * kHidden, kIn}, 16 + d, 0.0f, 0.05f),
                     random_normal({4 * kHidden, kHidden}, 18 + d, 0.0f, 0.05f),
                     random_normal({4 * kHidden}, 20 + d)});
  row(
      "deepspeech brnn4/8 bi-lstm 100 x 256 -> 100 x 2x256", [&] { lstm(lx, cells, 1, true, true); },
      [&] { lstm_backward(lx, cells, 1, true, true, ldy); });
  std::printf("%s\n", t.str().c_str());
}

void bench_codecs(const std::vector<Layer>& ls, const std::vector<double>& forward_s) {
  TextTable t({"weight gradient", "values", "1-bit encode ms", "S_q Gbit/s", "1-bit decode ms", "S_uq Gbit/s",
               "TernGrad encode ms", "encode / one-sample forward"},
              {false, true, true, true, true, true, true, true});
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const Tensor g = random_normal(ls[i].w.shape, 7);
    OneBitQuantizer enc;
    const OneBitTensor q = enc.quantize(g);
    Tensor sum(g.shape);
    Rng rng(8);
    const double e = seconds_per_call([&] { enc.quantize(g); });
    const double d = seconds_per_call([&] { add_dequantized(sum, q); });
    const double tg = seconds_per_call([&] { terngrad_quantize(g, rng); });
    const double bits = 32.0 * static_cast<double>(g.size());
    t.add_row({ls[i].name, std::to_string(g.size()), ms(e), fmt::format("{:.2f}", bits / e / 1e9), ms(d),
               fmt::format("{:.2f}", bits / d / 1e9), ms(tg), fmt::format("{:.2f}", e / forward_s[i])});
  }
  std::printf("%s\n", t.str().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
      g_repeats = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--repeats N]\n", argv[0]);
      return 2;
    }
  }
  const auto ls = layers();
  std::vector<double> forward_s;
  bench_backward(ls, forward_s);
  bench_codecs(ls, forward_s);
  bench_other_kinds();
  return 0;
}
