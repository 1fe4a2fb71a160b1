#include "partitioners/modnn/functional.hpp"

#include <limits>

#include <fmt/format.h>

#include "partitioners/modnn/fgcp.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/pool.hpp"

namespace coinfer::modnn {
namespace {

// A tensor holding the (C, rows, cols) region `at` of a larger map.
struct Slice {
  Tensor t;
  Region at;
};

std::int64_t virtual_begin(std::int64_t out_begin, std::int64_t stride, std::int64_t padding) {
  return out_begin * stride - padding;
}

// The padded input window a windowed layer reads for `out`, filled with `fill` outside `x`.
Tensor window(const Slice& x, const Layer& l, const Region& out, float fill) {
  const auto& a = l.attrs;
  const auto rb = virtual_begin(out.rows.begin, a.stride[0], a.padding[0]);
  const auto cb = virtual_begin(out.cols.begin, a.stride[1], a.padding[1]);
  const auto rows = (out.rows.size() - 1) * a.stride[0] + a.kernel[0];
  const auto cols = (out.cols.size() - 1) * a.stride[1] + a.kernel[1];
  const auto channels = x.t.dim(0);
  Tensor w({channels, rows, cols}, fill);
  for (std::int64_t c = 0; c < channels; ++c)
    for (std::int64_t r = 0; r < rows; ++r) {
      const auto h = rb + r - x.at.rows.begin;
      if (h < 0 || h >= x.at.rows.size()) continue;
      for (std::int64_t q = 0; q < cols; ++q) {
        const auto v = cb + q - x.at.cols.begin;
        if (v >= 0 && v < x.at.cols.size()) w.at(c, r, q) = x.t.at(c, h, v);
      }
    }
  return w;
}

Tensor run_windowed(const Layer& l, const kernels::LayerWeights& w, const Slice& x, const Region& out) {
  const auto& a = l.attrs;
  if (l.op == OpKind::Conv2d) {
    kernels::ConvParams p;
    p.stride = a.stride;
    return kernels::conv2d(window(x, l, out, 0.0f), w.weight, w.bias, p);
  }
  kernels::PoolParams p{a.kernel, a.stride, {0, 0}, false};
  if (l.op == OpKind::MaxPool)
    return kernels::max_pool2d(window(x, l, out, -std::numeric_limits<float>::infinity()), p);
  if (a.padding != std::array<std::int64_t, 2>{0, 0} || a.ceil_mode)
    throw Error(fmt::format("functional split: average pooling '{}' with padding or ceil mode", l.name));
  return kernels::avg_pool2d(window(x, l, out, 0.0f), p);
}

Slice run_node(const Graph& g, const WeightsByLayer& weights, const Stage& stage, const NodeRegions& node,
               const Tensor& input) {
  Slice x{input, {{0, input.dim(1)}, {0, input.dim(2)}}};
  for (std::size_t p = stage.first; p <= stage.last; ++p) {
    const auto index = g.topological_order()[p];
    const Layer& l = g.layer(index);
    const Region& out = node.outputs[p - stage.first];
    const bool windowed = l.op == OpKind::Conv2d || l.op == OpKind::MaxPool || l.op == OpKind::AvgPool;
    Tensor y = windowed ? run_windowed(l, weights.at(index), x, out)
                        : kernels::run_layer(l, {&x.t}, weights.at(index));
    x = {std::move(y), out};
  }
  return x;
}

}  // namespace

Tensor run_conv_stage_single(const Graph& graph, const WeightsByLayer& weights, const Stage& stage,
                             const Tensor& input) {
  Tensor x = input;
  for (std::size_t p = stage.first; p <= stage.last; ++p) {
    const auto index = graph.topological_order()[p];
    x = kernels::run_layer(graph.layer(index), {&x}, weights.at(index));
  }
  return x;
}

Tensor run_conv_stage_split(const Graph& graph, const WeightsByLayer& weights, const Stage& stage,
                            const std::vector<NodeRegions>& nodes, const Tensor& input) {
  const Shape& shape = layer_at_position(graph, stage.last).output_shape;
  Tensor out(shape, std::numeric_limits<float>::quiet_NaN());
  for (const auto& node : nodes) {
    if (node.outputs.back().area() == 0) continue;
    const Slice s = run_node(graph, weights, stage, node, input);
    for (std::int64_t c = 0; c < shape[0]; ++c)
      for (auto h = s.at.rows.begin; h < s.at.rows.end; ++h)
        for (auto w = s.at.cols.begin; w < s.at.cols.end; ++w)
          out.at(c, h, w) = s.t.at(c, h - s.at.rows.begin, w - s.at.cols.begin);
  }
  for (float v : out.data)
    if (v != v) throw Error("functional split: the nodes' regions leave part of the output uncovered");
  return out;
}

kernels::CsrMatrix units_by_inputs(const SparseWeights& weights, const std::vector<int>& owner, int node) {
  const auto& p = weights.pattern;
  std::vector<Eigen::Triplet<float, std::int32_t>> t;
  for (std::size_t e = 0; e < p.entries.size(); ++e)
    if (node == kAllNodes || owner[e] == node)
      t.emplace_back(static_cast<std::int32_t>(p.entries[e].col), static_cast<std::int32_t>(p.entries[e].row),
                     weights.values[e]);
  kernels::CsrMatrix m(p.cols, p.rows);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

Tensor run_fc_split(const SparseWeights& weights, const std::vector<int>& owner, std::size_t workers,
                    const Tensor& x) {
  Tensor y({weights.pattern.cols}, 0.0f);
  const Tensor no_bias;
  // Workers in order, then the GO: each node's block as an SpMV with the host kernel.
  for (std::size_t n = 0; n <= workers; ++n) {
    const int node = n == workers ? kGroupOwner : static_cast<int>(n);
    const Tensor part = kernels::sparse_fully_connected(x, units_by_inputs(weights, owner, node), no_bias);
    for (std::size_t j = 0; j < part.data.size(); ++j) y.data[j] += part.data[j];
  }
  return y;
}

Tensor run_fc_single(const SparseWeights& weights, const Tensor& x) {
  return kernels::sparse_fully_connected(x, units_by_inputs(weights, {}, kAllNodes), Tensor());
}

}  // namespace coinfer::modnn
