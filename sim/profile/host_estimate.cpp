#include "sim/profile/host_estimate.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <Eigen/Dense>

#include "sim/core/error.hpp"

namespace coinfer {

HostSpeed HostSpeed::nominal() {
  // One core of a typical AVX2 x86 CPU: GEMM-based convolution ~15 GMAC/s, GEMV-bound fc
  // ~2.5 GMAC/s (4 weight bytes per MAC at ~10 GB/s), depthwise ~2 GMAC/s (no GEMM reuse).
  HostSpeed s;
  s.work_per_s = {{OpClass::Conv, 15e9},       {OpClass::Depthwise, 2e9},  {OpClass::Deconv, 10e9},
                  {OpClass::Fc, 2.5e9},        {OpClass::SparseFc, 0.5e9}, {OpClass::Pool, 2e9},
                  {OpClass::Elementwise, 2e9}, {OpClass::Norm, 1e9},       {OpClass::Lstm, 2.5e9},
                  {OpClass::Other, 4e9}};
  s.bytes_per_s = 10e9;
  s.overhead_s = 1e-6;
  s.label = "nominal";
  return s;
}

HostSpeed measure_host_speed() {
  // A GEMM shaped like a mid-network 3x3 convolution (256 filters, 1152 = 128*3*3 taps, 28x28).
  const Eigen::Index m = 256, k = 1152, n = 784;
  Eigen::MatrixXf a = Eigen::MatrixXf::Constant(m, k, 0.5f), b = Eigen::MatrixXf::Constant(k, n, 0.25f);
  Eigen::MatrixXf c(m, n);
  c.noalias() = a * b;  // warm-up
  double best_s = 1e9;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    c.noalias() = a * b;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best_s = std::min(best_s, s);
  }
  const double macs_per_s = static_cast<double>(m * k * n) / best_s;
  HostSpeed speed = HostSpeed::nominal();
  const double ratio = macs_per_s / speed.work_per_s.at(OpClass::Conv);
  for (auto& [cls, rate] : speed.work_per_s) rate *= ratio;
  speed.bytes_per_s *= ratio;
  volatile float sink = c(0, 0);  // keep the product observable
  (void)sink;
  speed.label = fmt::format("measured ({:.1f} GMAC/s single-thread GEMM)", macs_per_s / 1e9);
  return speed;
}

double layer_work(const Graph& graph, std::size_t index) {
  const Layer& l = graph.layer(index);
  const double out_elements = static_cast<double>(shape_elements(l.output_shape));
  switch (op_class_of(l)) {
    case OpClass::SparseFc:
      return static_cast<double>(l.macs) * (1.0 - l.attrs.sparsity);
    case OpClass::Pool:
      if (l.op == OpKind::GlobalAvgPool)
        return static_cast<double>(shape_elements(graph.layer_by_name(l.inputs.at(0)).output_shape));
      return out_elements * static_cast<double>(l.attrs.kernel[0] * l.attrs.kernel[1]);
    case OpClass::Elementwise:
      return out_elements * static_cast<double>(std::max<std::size_t>(1, l.inputs.size()));
    case OpClass::Norm:
      return out_elements * (l.op == OpKind::Lrn ? static_cast<double>(l.attrs.lrn_size) : 1.0);
    case OpClass::Other:
      return 0.0;
    default:
      return static_cast<double>(l.macs);
  }
}

double layer_traffic_bytes(const Graph& graph, std::size_t index) {
  const Layer& l = graph.layer(index);
  if (l.op == OpKind::Input) return 0.0;
  double bytes = static_cast<double>(l.output_bytes);
  for (const auto& in : l.inputs) bytes += static_cast<double>(graph.layer_by_name(in).output_bytes);
  return bytes;
}

namespace {

// Work seconds of a layer for `batch` inputs: B x work / rate, except weight-streaming dense fc,
// whose batch is one GEMM reading the weights once (the roofline in the header).
double work_time_s(const Graph& graph, std::size_t index, const HostSpeed& speed, std::int64_t batch) {
  const Layer& l = graph.layer(index);
  const OpClass cls = op_class_of(l);
  const double work = layer_work(graph, index), b = static_cast<double>(batch);
  if (cls == OpClass::Fc)
    return std::max(work / speed.work_per_s.at(cls), b * work / speed.work_per_s.at(OpClass::Conv));
  return b * work / speed.work_per_s.at(cls);
}

}  // namespace

HostProfile estimate_host_profile(const Graph& graph, const HostSpeed& speed, std::int64_t batch) {
  if (batch < 1) throw Error(fmt::format("estimate_host_profile: batch must be >= 1, got {}", batch));
  HostProfile p;
  p.batch = batch;
  p.model = graph.name();
  p.host_cpu = speed.label == "nominal" ? kNominalHostName : host_cpu_model();
  p.basis = "estimate";
  for (std::size_t index : graph.topological_order()) {
    const Layer& l = graph.layer(index);
    TimingStats t;
    if (l.op != OpKind::Input)
      t.median_s = work_time_s(graph, index, speed, batch) +
                   static_cast<double>(batch) * layer_traffic_bytes(graph, index) / speed.bytes_per_s +
                   speed.overhead_s;
    p.layers.push_back(t);
  }
  return p;
}

}  // namespace coinfer
