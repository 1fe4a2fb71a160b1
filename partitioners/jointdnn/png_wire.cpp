#include "partitioners/jointdnn/png_wire.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/png_compress.hpp"

namespace coinfer::jointdnn {
namespace {

/// The tensors of one layer's weights in file order: weight, bias, batch_norm scale/shift/mean/variance.
std::vector<float*> weight_slots(kernels::LayerWeights& w, std::vector<std::size_t>& sizes) {
  std::vector<float*> slots;
  const auto add = [&](float* p, std::size_t n) {
    if (n == 0) return;
    slots.push_back(p);
    sizes.push_back(n);
  };
  add(w.weight.ptr(), w.weight.data.size());
  add(w.bias.ptr(), w.bias.data.size());
  auto& bn = w.batch_norm;
  for (auto* v : {&bn.scale, &bn.shift, &bn.mean, &bn.variance}) add(v->data(), v->size());
  return slots;
}

template <class F>
double median_seconds(int repeats, F&& run) {
  std::vector<double> t;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double zero_ratio(const Tensor& x) {
  const auto zeros = std::count(x.data.begin(), x.data.end(), 0.0f);
  return x.data.empty() ? 0.0 : static_cast<double>(zeros) / static_cast<double>(x.data.size());
}

}  // namespace

void load_raw_weights(ForwardPass& fp, const std::string& path, const std::string& key) {
  const Graph& g = fp.graph();
  std::vector<float*> slots;
  std::vector<std::size_t> sizes;
  for (auto i : g.topological_order()) {
    auto& w = fp.mutable_weights(i);
    if (w.sparse || !w.lstm.empty())
      throw InputError(path, key,
                       fmt::format("layer '{}' has {} weights; the raw weights format holds dense conv, fc "
                                   "and batch_norm parameters only",
                                   g.layer(i).name, w.sparse ? "pruned (sparse)" : "lstm"));
    const auto more = weight_slots(w, sizes);
    slots.insert(slots.end(), more.begin(), more.end());
  }
  std::size_t floats = 0;
  for (auto n : sizes) floats += n;
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(path, key, fmt::format("cannot read the weights file ({})", ec.message()));
  if (bytes != 4 * floats)
    throw InputError(path, key,
                     fmt::format("expected {} bytes ({} float32 parameters of model '{}'), got {}",
                                 4 * floats, floats, g.name(), bytes));
  std::ifstream in(path, std::ios::binary);
  for (std::size_t s = 0; s < slots.size(); ++s)
    if (!in.read(reinterpret_cast<char*>(slots[s]), static_cast<std::streamsize>(4 * sizes[s])))
      throw InputError(path, key, "read error");
  // The format is little-endian; every host coinfer builds on is too (x86-64, aarch64).
}

void set_relu_zero_ratio(ForwardPass& fp, std::vector<Tensor>& activations, double ratio,
                         const std::string& key) {
  if (!(ratio > 0.0 && ratio < 1.0))
    throw InputError("", key, fmt::format("expected a zero ratio in (0, 1), got {}", ratio));
  const Graph& g = fp.graph();
  const auto& order = g.topological_order();
  std::vector<std::size_t> position(g.size());
  for (std::size_t pos = 0; pos < order.size(); ++pos) position[order[pos]] = pos;
  // One pass in topological order: once a bias moved, every later layer is recomputed as it is
  // reached, so each relu's producer is read up to date with the shifts before it.
  bool shifted = false;
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    const std::size_t i = order[pos];
    if (shifted) fp.run_range(pos, pos + 1, activations);
    if (g.layer(i).op != OpKind::Relu || activations[i].rank() != 3) continue;
    const std::size_t p = fp.producers(i).front();
    const Layer& producer = g.layer(p);
    auto& w = fp.mutable_weights(p);
    std::vector<float>* offset = producer.op == OpKind::Conv2d && !w.bias.empty() ? &w.bias.data
                                 : producer.op == OpKind::BatchNorm               ? &w.batch_norm.shift
                                                                                  : nullptr;
    if (offset == nullptr)
      throw InputError("", key,
                       fmt::format("relu '{}' follows '{}' ({}), which has no bias or shift to lower; a zero "
                                   "ratio is set through a conv2d with a bias or a batch_norm",
                                   g.layer(i).name, producer.name, op_name(producer.op)));
    const Tensor& x = activations[p];
    const auto plane = static_cast<std::size_t>(x.dim(1) * x.dim(2));
    // The k-th smallest value of each channel moves to 0: k values end <= 0 and the relu zeros them.
    const auto k =
        std::clamp<std::size_t>(static_cast<std::size_t>(std::llround(ratio * double(plane))), 1, plane);
    std::vector<float> channel(plane);
    for (std::size_t c = 0; c < offset->size(); ++c) {
      std::copy_n(x.data.begin() + static_cast<std::ptrdiff_t>(c * plane), plane, channel.begin());
      std::nth_element(channel.begin(), channel.begin() + static_cast<std::ptrdiff_t>(k - 1), channel.end());
      (*offset)[c] -= channel[k - 1];
    }
    fp.run_range(position[p], pos + 1, activations);  // the producer, what it feeds up to this relu
    shifted = true;
  }
}

std::vector<PngWireLayer> measure_png_wire(const Graph& graph, const PngWireOptions& options) {
  ForwardPass fp(graph, options.seed);
  if (!options.weights_file.empty()) load_raw_weights(fp, options.weights_file, options.weights_key);
  auto acts = fp.run(fp.make_inputs(options.seed));
  if (options.relu_zero_ratio)
    set_relu_zero_ratio(fp, acts, *options.relu_zero_ratio, options.zero_ratio_key);
  const Graph& g = fp.graph();
  std::vector<PngWireLayer> out;
  for (auto i : g.topological_order()) {
    const Layer& l = g.layer(i);
    const Tensor& x = acts[i];
    PngWireLayer w;
    w.name = l.name;
    w.raw_bytes = static_cast<double>(l.output_bytes);
    w.zero_ratio = zero_ratio(x);
    w.compressed = x.rank() == 3;  // (C, H, W); fc vectors are small and sent as they are (sec. 4.2)
    if (w.compressed) {
      const auto png = kernels::png_compress(x);
      w.png_bytes = static_cast<double>(png.size_bytes());
      w.ratio_vs_8bit = png.ratio_vs_8bit();
      w.compress_host_s = median_seconds(options.repeats, [&] { (void)kernels::png_compress(x); });
      w.decompress_host_s = median_seconds(options.repeats, [&] { (void)kernels::png_decompress(png); });
    }
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace coinfer::jointdnn
