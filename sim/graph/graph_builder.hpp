#pragma once
/// Fluent construction of a Graph, used by the model zoo. Every call appends one layer
/// and returns its name, so models read top to bottom:
///
///     GraphBuilder b("lenet5");
///     auto x = b.input("data", {1, 32, 32});
///     x = b.conv(x, "conv1", 6, 5);
///     x = b.max_pool(x, "pool1", 2, 2);
///     Graph g = b.build();              // runs shape inference
#include <string>
#include <vector>

#include "sim/graph/graph.hpp"

namespace coinfer {

class GraphBuilder {
 public:
  explicit GraphBuilder(std::string model_name) : graph_(std::move(model_name)) {}

  std::string add(std::string name, OpKind op, std::vector<std::string> inputs, LayerAttrs attrs = {});

  std::string input(std::string name, Shape shape);
  std::string conv(const std::string& in, std::string name, std::int64_t out_channels, std::int64_t kernel,
                   std::int64_t stride = 1, std::int64_t padding = 0, std::int64_t groups = 1,
                   bool bias = true, std::int64_t dilation = 1);
  /// Rectangular kernel / stride / padding variant.
  std::string conv2(const std::string& in, std::string name, std::int64_t out_channels,
                    std::array<std::int64_t, 2> kernel, std::array<std::int64_t, 2> stride,
                    std::array<std::int64_t, 2> padding, bool bias = true);
  std::string depthwise(const std::string& in, std::string name, std::int64_t kernel, std::int64_t stride = 1,
                        std::int64_t padding = 0, bool bias = true);
  std::string deconv(const std::string& in, std::string name, std::int64_t out_channels, std::int64_t kernel,
                     std::int64_t stride = 1, std::int64_t padding = 0, std::int64_t output_padding = 0,
                     bool bias = true);
  std::string fc(const std::string& in, std::string name, std::int64_t units, bool bias = true);
  std::string max_pool(const std::string& in, std::string name, std::int64_t kernel, std::int64_t stride,
                       std::int64_t padding = 0, bool ceil_mode = false);
  std::string avg_pool(const std::string& in, std::string name, std::int64_t kernel, std::int64_t stride,
                       std::int64_t padding = 0, bool ceil_mode = false);
  std::string global_avg_pool(const std::string& in, std::string name);
  std::string relu(const std::string& in, std::string name);
  std::string relu6(const std::string& in, std::string name);
  std::string sigmoid(const std::string& in, std::string name);
  std::string tanh(const std::string& in, std::string name);
  std::string leaky_relu(const std::string& in, std::string name, double negative_slope = 0.1);
  std::string batch_norm(const std::string& in, std::string name);
  std::string lrn(const std::string& in, std::string name, std::int64_t size = 5, double alpha = 1e-4,
                  double beta = 0.75, double k = 1.0);
  std::string dropout(const std::string& in, std::string name, double rate = 0.5);
  std::string softmax(const std::string& in, std::string name);
  std::string flatten(const std::string& in, std::string name);
  std::string add_op(std::vector<std::string> ins, std::string name);
  std::string concat(std::vector<std::string> ins, std::string name, std::int64_t axis = 0);
  std::string lstm(const std::string& in, std::string name, std::int64_t units, std::int64_t num_layers = 1,
                   bool bidirectional = false, bool return_sequences = true);
  std::string upsample(const std::string& in, std::string name, std::int64_t scale = 2,
                       std::string mode = "nearest");

  /// Runs shape inference and returns the graph; throws like `Graph::infer`.
  Graph build();

 private:
  Graph graph_;
};

}  // namespace coinfer
