#include "sim/profile/backward_estimate.hpp"

#include <fmt/format.h>

#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/layer_runner.hpp"

namespace coinfer {
namespace {

/// Backward work / forward work: two GEMM-shaped passes for layers with weights, one otherwise.
double work_factor(const Layer& l) {
  switch (op_class_of(l)) {
    case OpClass::Conv:
    case OpClass::Depthwise:
    case OpClass::Deconv:
    case OpClass::Fc:
    case OpClass::SparseFc:
    case OpClass::Lstm:
      return 2.0;
    default:
      return l.params > 0 ? 2.0 : 1.0;
  }
}

double input_bytes(const Graph& graph, const Layer& l) {
  double bytes = 0.0;
  for (const auto& in : l.inputs) bytes += static_cast<double>(graph.layer_by_name(in).output_bytes);
  return bytes;
}

}  // namespace

double estimate_backward_time_s(const Graph& graph, std::size_t index, const HostSpeed& speed) {
  const Layer& l = graph.layer(index);
  if (l.op == OpKind::Input) return 0.0;
  const double work = work_factor(l) * layer_work(graph, index);
  const double traffic = layer_traffic_bytes(graph, index) + input_bytes(graph, l);
  return work / speed.work_per_s.at(op_class_of(l)) + traffic / speed.bytes_per_s + speed.overhead_s;
}

HostProfile estimate_backward_profile(const Graph& graph, const HostSpeed& speed) {
  HostProfile p = estimate_host_profile(graph, speed);
  const auto& order = graph.topological_order();
  for (std::size_t k = 0; k < order.size(); ++k)
    p.layers[k] = TimingStats{estimate_backward_time_s(graph, order[k], speed), 0.0, 0, 0.0};
  for (auto& t : p.layers) t.mean_s = t.median_s;
  return p;
}

HostProfile backward_profile_of(const Graph& graph, const HostProfile& forward,
                                const std::optional<MeasuredBackwardRatio>& measured) {
  const auto check = [&](const HostProfile& p) {
    if (p.layers.size() != graph.size())
      throw Error(fmt::format("backward profile: profile of '{}' has {} layers, graph '{}' has {}", p.model,
                              p.layers.size(), graph.name(), graph.size()));
  };
  check(forward);
  if (measured) {
    check(measured->forward);
    check(measured->backward);
  }
  const HostSpeed nominal = HostSpeed::nominal();
  const HostProfile fwd_estimate = estimate_host_profile(graph, nominal);
  const auto& order = graph.topological_order();
  HostProfile p = forward;
  p.groups.clear();
  for (std::size_t k = 0; k < order.size(); ++k) {
    const double est = fwd_estimate.layers[k].median_s;
    double ratio = est > 0.0 ? estimate_backward_time_s(graph, order[k], nominal) / est : 0.0;
    if (measured && measured->forward.layers[k].median_s > 0.0)
      ratio = measured->backward.layers[k].median_s / measured->forward.layers[k].median_s;
    TimingStats& t = p.layers[k];
    t = TimingStats{t.median_s * ratio, t.iqr_s * ratio, t.repeats, t.mean_s * ratio};
  }
  return p;
}

std::optional<std::string> first_layer_without_backward(const Graph& graph) {
  for (std::size_t i : graph.topological_order())
    if (!kernels::has_backward(graph.layer(i))) return graph.layer(i).name;
  return std::nullopt;
}

}  // namespace coinfer
