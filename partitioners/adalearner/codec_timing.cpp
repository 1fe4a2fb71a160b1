#include "partitioners/adalearner/codec_timing.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include "sim/functional/forward_pass.hpp"
#include "sim/kernels/quantize.hpp"
#include "sim/profile/host_estimate.hpp"

namespace coinfer::adalearner {
namespace {

constexpr int kRepeats = 5;

// Median seconds of `fn` over kRepeats runs (after one warm-up).
double median_s(const std::function<void()>& fn) {
  fn();
  std::vector<double> t;
  for (int r = 0; r < kRepeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(t.begin(), t.begin() + kRepeats / 2, t.end());
  return t[kRepeats / 2];
}

}  // namespace

CodecOps measured_codec_ops(const Graph& graph) {
  const ForwardPass model(graph, 1);
  std::vector<const Tensor*> grads;
  double elements = 0.0;
  for (std::size_t i = 0; i < graph.size(); ++i)
    for (const Tensor* t : {&model.weights(i).weight, &model.weights(i).bias})
      if (!t->empty()) {
        grads.push_back(t);
        elements += static_cast<double>(t->size());
      }
  std::vector<kernels::OneBitQuantizer> encoders(grads.size());
  std::vector<kernels::OneBitTensor> messages(grads.size());
  const double encode_s = median_s([&] {
    for (std::size_t g = 0; g < grads.size(); ++g) messages[g] = encoders[g].quantize(*grads[g]);
  });
  const double decode_s = median_s([&] {
    for (const auto& m : messages) {
      Tensor out = kernels::dequantize(m);
      (void)out;
    }
  });
  Rng rng(1);
  const double terngrad_s = median_s([&] {
    for (const Tensor* g : grads) {
      auto q = kernels::terngrad_quantize(*g, rng);
      (void)q;
    }
  });
  // Host seconds per element -> nominal-host operations per element.
  const double host_rate = measure_host_speed().work_per_s.at(OpClass::Elementwise);
  const double per = host_rate / std::max(elements, 1.0);
  return CodecOps{encode_s * per, terngrad_s * per, decode_s * per};
}

}  // namespace coinfer::adalearner
