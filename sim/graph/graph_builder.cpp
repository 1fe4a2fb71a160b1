#include "sim/graph/graph_builder.hpp"

namespace coinfer {
namespace {

std::array<std::int64_t, 2> sq(std::int64_t v) { return {v, v}; }

LayerAttrs pool_attrs(std::int64_t kernel, std::int64_t stride, std::int64_t padding, bool ceil_mode) {
  LayerAttrs a;
  a.kernel = sq(kernel);
  a.stride = sq(stride);
  a.padding = sq(padding);
  a.ceil_mode = ceil_mode;
  return a;
}

}  // namespace

std::string GraphBuilder::add(std::string name, OpKind op, std::vector<std::string> inputs,
                              LayerAttrs attrs) {
  Layer l;
  l.name = name;
  l.op = op;
  l.inputs = std::move(inputs);
  l.attrs = std::move(attrs);
  graph_.add(std::move(l));
  return name;
}

std::string GraphBuilder::input(std::string name, Shape shape) {
  LayerAttrs a;
  a.shape = std::move(shape);
  return add(std::move(name), OpKind::Input, {}, a);
}

std::string GraphBuilder::conv(const std::string& in, std::string name, std::int64_t out_channels,
                               std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                               std::int64_t groups, bool bias, std::int64_t dilation) {
  LayerAttrs a;
  a.out_channels = out_channels;
  a.kernel = sq(kernel);
  a.stride = sq(stride);
  a.padding = sq(padding);
  a.groups = groups;
  a.bias = bias;
  a.dilation = sq(dilation);
  return add(std::move(name), OpKind::Conv2d, {in}, a);
}

std::string GraphBuilder::conv2(const std::string& in, std::string name, std::int64_t out_channels,
                                std::array<std::int64_t, 2> kernel, std::array<std::int64_t, 2> stride,
                                std::array<std::int64_t, 2> padding, bool bias) {
  LayerAttrs a;
  a.out_channels = out_channels;
  a.kernel = kernel;
  a.stride = stride;
  a.padding = padding;
  a.bias = bias;
  return add(std::move(name), OpKind::Conv2d, {in}, a);
}

std::string GraphBuilder::depthwise(const std::string& in, std::string name, std::int64_t kernel,
                                    std::int64_t stride, std::int64_t padding, bool bias) {
  LayerAttrs a;
  a.kernel = sq(kernel);
  a.stride = sq(stride);
  a.padding = sq(padding);
  a.bias = bias;
  return add(std::move(name), OpKind::DepthwiseConv2d, {in}, a);
}

std::string GraphBuilder::deconv(const std::string& in, std::string name, std::int64_t out_channels,
                                 std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                                 std::int64_t output_padding, bool bias) {
  LayerAttrs a;
  a.out_channels = out_channels;
  a.kernel = sq(kernel);
  a.stride = sq(stride);
  a.padding = sq(padding);
  a.output_padding = sq(output_padding);
  a.bias = bias;
  return add(std::move(name), OpKind::ConvTranspose2d, {in}, a);
}

std::string GraphBuilder::fc(const std::string& in, std::string name, std::int64_t units, bool bias) {
  LayerAttrs a;
  a.units = units;
  a.bias = bias;
  return add(std::move(name), OpKind::FullyConnected, {in}, a);
}

std::string GraphBuilder::max_pool(const std::string& in, std::string name, std::int64_t kernel,
                                   std::int64_t stride, std::int64_t padding, bool ceil_mode) {
  return add(std::move(name), OpKind::MaxPool, {in}, pool_attrs(kernel, stride, padding, ceil_mode));
}

std::string GraphBuilder::avg_pool(const std::string& in, std::string name, std::int64_t kernel,
                                   std::int64_t stride, std::int64_t padding, bool ceil_mode) {
  return add(std::move(name), OpKind::AvgPool, {in}, pool_attrs(kernel, stride, padding, ceil_mode));
}

std::string GraphBuilder::global_avg_pool(const std::string& in, std::string name) {
  return add(std::move(name), OpKind::GlobalAvgPool, {in});
}
std::string GraphBuilder::relu(const std::string& in, std::string name) {
  return add(std::move(name), OpKind::Relu, {in});
}
std::string GraphBuilder::relu6(const std::string& in, std::string name) {
  return add(std::move(name), OpKind::Relu6, {in});
}
std::string GraphBuilder::sigmoid(const std::string& in, std::string name) {
  return add(std::move(name), OpKind::Sigmoid, {in});
}
std::string GraphBuilder::tanh(const std::string& in, std::string name) {
  return add(std::move(name), OpKind::Tanh, {in});
}

std::string GraphBuilder::leaky_relu(const std::string& in, std::string name, double negative_slope) {
  LayerAttrs a;
  a.negative_slope = negative_slope;
  return add(std::move(name), OpKind::LeakyRelu, {in}, a);
}

std::string GraphBuilder::batch_norm(const std::string& in, std::string name) {
  return add(std::move(name), OpKind::BatchNorm, {in});
}

std::string GraphBuilder::lrn(const std::string& in, std::string name, std::int64_t size, double alpha,
                              double beta, double k) {
  LayerAttrs a;
  a.lrn_size = size;
  a.lrn_alpha = alpha;
  a.lrn_beta = beta;
  a.lrn_k = k;
  return add(std::move(name), OpKind::Lrn, {in}, a);
}

std::string GraphBuilder::dropout(const std::string& in, std::string name, double rate) {
  LayerAttrs a;
  a.rate = rate;
  return add(std::move(name), OpKind::Dropout, {in}, a);
}

std::string GraphBuilder::softmax(const std::string& in, std::string name) {
  return add(std::move(name), OpKind::Softmax, {in});
}
std::string GraphBuilder::flatten(const std::string& in, std::string name) {
  return add(std::move(name), OpKind::Flatten, {in});
}
std::string GraphBuilder::add_op(std::vector<std::string> ins, std::string name) {
  return add(std::move(name), OpKind::Add, std::move(ins));
}

std::string GraphBuilder::concat(std::vector<std::string> ins, std::string name, std::int64_t axis) {
  LayerAttrs a;
  a.axis = axis;
  return add(std::move(name), OpKind::Concat, std::move(ins), a);
}

std::string GraphBuilder::lstm(const std::string& in, std::string name, std::int64_t units,
                               std::int64_t num_layers, bool bidirectional, bool return_sequences) {
  LayerAttrs a;
  a.units = units;
  a.num_layers = num_layers;
  a.bidirectional = bidirectional;
  a.return_sequences = return_sequences;
  return add(std::move(name), OpKind::Lstm, {in}, a);
}

std::string GraphBuilder::upsample(const std::string& in, std::string name, std::int64_t scale,
                                   std::string mode) {
  LayerAttrs a;
  a.scale = sq(scale);
  a.mode = std::move(mode);
  return add(std::move(name), OpKind::Upsample, {in}, a);
}

Graph GraphBuilder::build() {
  graph_.infer();
  return graph_;
}

}  // namespace coinfer
