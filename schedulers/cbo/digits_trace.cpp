#include "schedulers/cbo/digits_trace.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/trainer.hpp"
#include "sim/kernels/png_compress.hpp"
#include "sim/kernels/quantize.hpp"
#include "sim/kernels/resize.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer::cbo {
namespace {

constexpr std::int64_t kDigitPx = 8;  // the digits are 8 x 8

void check_options(const DigitsTraceOptions& o) {
  if (!(o.trace_fraction > 0 && o.trace_fraction < 1))
    throw InputError("", "trace-fraction",
                     fmt::format("expected a number in (0, 1), got {}", o.trace_fraction));
  if (o.npu_bits < 2 || o.npu_bits > 8)
    throw InputError("", "npu-bits", fmt::format("expected an integer in [2, 8], got {}", o.npu_bits));
  if (o.npu_detail_px < 1 || o.npu_detail_px > kDigitPx)
    throw InputError("", "npu-detail-px",
                     fmt::format("expected an integer in [1, {}], got {}", kDigitPx, o.npu_detail_px));
  if (o.npu_epochs < 1) throw InputError("", "npu-epochs", "expected an integer >= 1");
  if (o.server_epochs < 1) throw InputError("", "server-epochs", "expected an integer >= 1");
  if (o.frames_per_video < 1) throw InputError("", "frames-per-video", "expected an integer >= 1");
  check_resolutions(o.resolutions_px);
}

// The index of the largest value (the first on ties): the predicted class.
std::int64_t arg_max(const Tensor& p) {
  return std::max_element(p.data.begin(), p.data.end()) - p.data.begin();
}

Tensor predict(const Trainer& model, const Tensor& input) {
  const ForwardPass& fp = model.model();
  return fp.run({input}, false)[fp.graph().output_layers().front()];
}

// The NPU's outputs on one image: the softmax probabilities and the feature vector the paper names
// (the last layer's values before the softmax, the output layer's input).
struct NpuOutputs {
  Tensor prob;
  Tensor logits;
};

NpuOutputs predict_with_logits(const Trainer& model, const Tensor& input) {
  const ForwardPass& fp = model.model();
  const Graph& g = fp.graph();
  const std::size_t out = g.output_layers().front();
  const auto logits = static_cast<std::size_t>(g.index_of(g.layer(out).inputs.front()));
  const std::vector<Tensor> acts = fp.run({input}, true);
  return {acts[out], acts[logits]};
}

Trainer train(const char* zoo_name, std::uint64_t seed, std::int64_t epochs, const Dataset& data,
              const std::vector<std::size_t>& indices) {
  Trainer t(build_zoo_model(zoo_name), seed);
  t.check_dataset(data);
  for (std::int64_t e = 1; e <= epochs; ++e) t.train_epoch(data, indices, e);
  return t;
}

// The server's training set: every training image as the server receives it at every resolution
// (the frame sent, before PNG's 8-bit rounding, area-averaged to the model's 8 x 8 input).
Dataset server_training_set(const Dataset& data, const std::vector<std::size_t>& train,
                            const std::vector<int>& resolutions_px) {
  Dataset out{data.source, data.sample_shape, data.classes, {}, {}};
  for (auto i : train)
    for (int px : resolutions_px) {
      out.samples.push_back(
          kernels::resize_area(digits_frame(data.samples[i], px, resolutions_px.back()), kDigitPx, kDigitPx));
      out.labels.push_back(data.labels[i]);
    }
  return out;
}

// `data` as the NPU sees it at `detail_px` (digits_npu_view of every image).
Dataset npu_view(const Dataset& data, std::int64_t detail_px) {
  Dataset out = data;
  for (auto& sample : out.samples) sample = digits_npu_view(sample, detail_px);
  return out;
}

// `w` with each row (an output unit's or filter's weights, dimension 0) replaced by its `bits`-bit
// symmetric quantization: one scale per output channel, as NPU toolchains quantize weights.
Tensor quantize_per_channel(const Tensor& w, int bits) {
  const std::int64_t rows = w.shape.front(), per_row = static_cast<std::int64_t>(w.data.size()) / rows;
  Tensor out = w;
  for (std::int64_t r = 0; r < rows; ++r) {
    const auto first = w.data.begin() + r * per_row;
    const Tensor row({per_row}, std::vector<float>(first, first + per_row));
    const Tensor q = kernels::dequantize(kernels::quantize_symmetric(row, bits));
    std::copy(q.data.begin(), q.data.end(), out.data.begin() + r * per_row);
  }
  return out;
}

// Every layer's weight tensor (not its bias) quantized per output channel to `bits` bits.
void quantize_weights(Trainer& t, int bits) {
  for (std::size_t l = 0; l < t.model().graph().size(); ++l) {
    auto& w = t.weights(l);
    if (!w.weight.data.empty()) w.weight = quantize_per_channel(w.weight, bits);
  }
}

double accuracy(const Trainer& model, const Dataset& data, const std::vector<std::size_t>& frames) {
  std::size_t right = 0;
  for (auto i : frames) right += arg_max(predict(model, data.samples[i])) == data.labels[i];
  return static_cast<double>(right) / static_cast<double>(frames.size());
}

}  // namespace

std::int64_t digits_detail_px(int px, int full_px) {
  return std::max<std::int64_t>(1, std::lround(static_cast<double>(kDigitPx) * px / full_px));
}

Tensor digits_npu_view(const Tensor& digit, std::int64_t detail_px) {
  if (detail_px >= kDigitPx) return digit;
  return kernels::resize_bilinear(kernels::resize_area(digit, detail_px, detail_px), kDigitPx, kDigitPx);
}

Tensor digits_frame(const Tensor& digit, int px, int full_px) {
  const std::int64_t g = digits_detail_px(px, full_px);
  return kernels::resize_bilinear(kernels::resize_area(digit, g, g), px, px);
}

DigitsTrace make_digits_trace(const DigitsTraceOptions& o) {
  check_options(o);
  const Dataset data = load_digits(o.data.empty() ? default_digits_path() : o.data);
  const DatasetSplit split = [&] {
    try {
      return split_dataset(data.size(), o.trace_fraction, o.seed);
    } catch (const InputError& e) {  // both parts empty-checked: reported under our option's name
      throw InputError("", "trace-fraction", e.message());
    }
  }();
  const Dataset npu_data = npu_view(data, o.npu_detail_px);
  Trainer npu = train("digits_mlp", derive_seed(o.seed, "npu"), o.npu_epochs, npu_data, split.train);
  const Dataset server_data = server_training_set(data, split.train, o.resolutions_px);
  std::vector<std::size_t> all(server_data.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  const Trainer server =
      train("digits_cnn", derive_seed(o.seed, "server"), o.server_epochs, server_data, all);

  DigitsTrace out;
  auto& s = out.summary;
  s.data = data.source;
  s.train_images = split.train.size();
  s.npu_fp32_accuracy = accuracy(npu, npu_data, split.test);
  quantize_weights(npu, o.npu_bits);

  const std::size_t n_res = o.resolutions_px.size();
  const int full_px = o.resolutions_px.back();
  out.trace.resolutions_px = o.resolutions_px;
  out.trace.classes = static_cast<std::size_t>(data.classes);
  s.server_accuracy.assign(n_res, 0.0);
  s.mean_size_bytes.assign(n_res, 0.0);
  for (int px : o.resolutions_px) s.detail_px.push_back(digits_detail_px(px, full_px));
  for (std::size_t k = 0; k < split.test.size(); ++k) {
    const std::size_t i = split.test[k];
    const Tensor& digit = data.samples[i];
    const std::int64_t label = data.labels[i];
    TraceFrame f;
    f.video = fmt::format("v{:03}", static_cast<std::int64_t>(k) / o.frames_per_video);
    f.index = static_cast<std::int64_t>(k) % o.frames_per_video;
    const NpuOutputs npu_out = predict_with_logits(npu, npu_data.samples[i]);
    const Tensor& p = npu_out.prob;
    f.confidence = *std::max_element(p.data.begin(), p.data.end());
    f.correct = arg_max(p) == label;
    f.label = label;
    f.scores.assign(npu_out.logits.data.begin(), npu_out.logits.data.end());
    for (std::size_t r = 0; r < n_res; ++r) {
      const auto png = kernels::png_compress(digits_frame(digit, o.resolutions_px[r], full_px));
      const Tensor seen = kernels::resize_area(kernels::png_decompress(png), kDigitPx, kDigitPx);
      f.size_bytes.push_back(static_cast<double>(png.png.size()));
      f.server_correct.push_back(arg_max(predict(server, seen)) == label);
      s.server_accuracy[r] += f.server_correct.back();
      s.mean_size_bytes[r] += f.size_bytes.back();
    }
    s.npu_accuracy += f.correct;
    s.npu_mean_confidence += f.confidence;
    out.trace.frames.push_back(std::move(f));
  }
  const auto n = static_cast<double>(out.trace.frames.size());
  for (auto* v : {&s.server_accuracy, &s.mean_size_bytes})
    for (double& x : *v) x /= n;
  s.npu_accuracy /= n;
  s.npu_mean_confidence /= n;
  return out;
}

}  // namespace coinfer::cbo
