// Inception-BN ("BN-Inception") of Ioffe & Szegedy, "Batch Normalization: Accelerating Deep Network
// Training by Reducing Internal Covariate Shift", ICML 2015, Figure 5 (the GoogLeNet variant with
// batch norm after every convolution, 5x5 branches replaced by two 3x3 convolutions, and stride-2
// inception modules 3c and 4e): 3x224x224, 1000 classes. Convolutions carry no bias (batch norm's shift
// replaces it, Sec. 3.2 of the paper); pools use Caffe's ceil rounding so the feature maps are
// 56/28/14/7 as in Figure 5. The paper gives no parameter count; ours: 11,285,224 (about the 11.3M usually
// quoted).
#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"

namespace coinfer {
namespace {

// One row of Figure 5. `c1x1` = 0 and `stride` = 2 mark the reduction modules (3c, 4e), whose pool
// branch passes through without projection.
struct Module {
  const char* name;
  std::int64_t c1x1, c3x3_reduce, c3x3, d3x3_reduce, d3x3;
  bool avg_pool;
  std::int64_t pool_proj, stride;
};

std::string conv_bn_relu(GraphBuilder& b, const std::string& in, const std::string& name, std::int64_t out,
                         std::int64_t kernel, std::int64_t stride = 1) {
  auto x = b.conv(in, name, out, kernel, stride, kernel / 2, 1, false);
  x = b.batch_norm(x, name + "_bn");
  return b.relu(x, name + "_relu");
}

std::string inception(GraphBuilder& b, const std::string& in, const Module& m) {
  const std::string p = fmt::format("inception_{}.", m.name);
  std::vector<std::string> branches;
  if (m.c1x1 > 0) branches.push_back(conv_bn_relu(b, in, p + "1x1", m.c1x1, 1));
  auto x = conv_bn_relu(b, in, p + "3x3_reduce", m.c3x3_reduce, 1);
  branches.push_back(conv_bn_relu(b, x, p + "3x3", m.c3x3, 3, m.stride));
  x = conv_bn_relu(b, in, p + "double_3x3_reduce", m.d3x3_reduce, 1);
  x = conv_bn_relu(b, x, p + "double_3x3_1", m.d3x3, 3);
  branches.push_back(conv_bn_relu(b, x, p + "double_3x3_2", m.d3x3, 3, m.stride));
  const std::int64_t pad = m.stride == 1 ? 1 : 0;  // the reduction modules pool unpadded (ceil rounding)
  x = m.avg_pool ? b.avg_pool(in, p + "pool", 3, m.stride, pad, true)
                 : b.max_pool(in, p + "pool", 3, m.stride, pad, true);
  branches.push_back(m.pool_proj > 0 ? conv_bn_relu(b, x, p + "pool_proj", m.pool_proj, 1) : x);
  return b.concat(branches, p + "output");
}

}  // namespace

Graph make_inception_bn() {
  GraphBuilder b("inception_bn");
  auto x = b.input("data", {3, 224, 224});
  x = conv_bn_relu(b, x, "conv1_7x7_s2", 64, 7, 2);
  x = b.max_pool(x, "pool1_3x3_s2", 3, 2, 0, true);
  x = conv_bn_relu(b, x, "conv2_3x3_reduce", 64, 1);
  x = conv_bn_relu(b, x, "conv2_3x3", 192, 3);
  x = b.max_pool(x, "pool2_3x3_s2", 3, 2, 0, true);
  const Module modules[] = {
      {"3a", 64, 64, 64, 64, 96, true, 32, 1},       {"3b", 64, 64, 96, 64, 96, true, 64, 1},
      {"3c", 0, 128, 160, 64, 96, false, 0, 2},      {"4a", 224, 64, 96, 96, 128, true, 128, 1},
      {"4b", 192, 96, 128, 96, 128, true, 128, 1},   {"4c", 160, 128, 160, 128, 160, true, 128, 1},
      {"4d", 96, 128, 192, 160, 192, true, 128, 1},  {"4e", 0, 128, 192, 192, 256, false, 0, 2},
      {"5a", 352, 192, 320, 160, 224, true, 128, 1}, {"5b", 352, 192, 320, 192, 224, false, 128, 1},
  };
  for (const auto& m : modules) x = inception(b, x, m);
  x = b.global_avg_pool(x, "pool5_7x7_s1");
  x = b.fc(x, "fc", 1000);
  b.softmax(x, "prob");
  return b.build();
}

}  // namespace coinfer
