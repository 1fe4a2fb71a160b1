#include "sim/cost/cost_model.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/profile/estimate_normalization.hpp"
#include "sim/profile/host_estimate.hpp"

namespace coinfer {
namespace {

void require_finite_nonnegative(double x, const char* what) {
  if (!std::isfinite(x) || x < 0.0)
    throw Error(fmt::format("{}: expected a finite number >= 0, got {}", what, x));
}

// MoDNN eq. 2.2: SpMV time SPT(n) for density below the threshold, else GEMV time GET(r, c).
// Returns a negative value when the device gives no regression for this layer.
double sparse_model_time_s(const Layer& layer, const SparseModel& model) {
  if (layer.op != OpKind::FullyConnected) return -1.0;
  const double elements = static_cast<double>(layer.macs);  // r * c of the weight matrix
  const double density = 1.0 - layer.attrs.sparsity;
  if (density < model.density_threshold && model.spt_s_per_nonzero > 0.0)
    return model.spt_s_per_nonzero * density * elements;
  if (density >= model.density_threshold && model.get_s_per_element > 0.0)
    return model.get_s_per_element * elements;
  return -1.0;
}

}  // namespace

double transfer_time_s(double size_bytes, double rate_bps, double latency_s) {
  require_finite_nonnegative(size_bytes, "transfer size_bytes");
  require_finite_nonnegative(latency_s, "transfer latency_s");
  if (!std::isfinite(rate_bps) || rate_bps <= 0.0)
    throw Error(fmt::format("transfer rate_bps: expected a positive number, got {}", rate_bps));
  return latency_s + 8.0 * size_bytes / rate_bps;
}

double radio_power_w(const RadioPowerModel& radio, LinkDirection direction, double throughput_bps) {
  require_finite_nonnegative(throughput_bps, "radio throughput_bps");
  const double mbps = throughput_bps / 1e6;
  // JointDNN eq. 21: P_u = alpha_u * t_u + beta, P_d = alpha_d * t_d + beta (mW, Mbps).
  const double mw = direction == LinkDirection::Uplink
                        ? radio.uplink_alpha_mw_per_mbps * mbps + radio.uplink_beta_mw
                        : radio.downlink_alpha_mw_per_mbps * mbps + radio.downlink_beta_mw;
  return mw / 1000.0;
}

double transfer_energy_j(const RadioPowerModel& radio, LinkDirection direction, double size_bytes,
                         double rate_bps) {
  return radio_power_w(radio, direction, rate_bps) * transfer_time_s(size_bytes, rate_bps);
}

double op_scale_for(const DeviceCalibration& device, const Layer& layer) {
  const auto name = std::string(op_class_name(op_class_of(layer)));
  auto it = device.op_scale.find(name);
  if (it == device.op_scale.end())
    throw Error(fmt::format("device '{}' has no op_scale for op class '{}' (layer '{}')", device.name, name,
                            layer.name));
  return it->second;
}

CostModel::CostModel(const Graph& graph, HostProfile profile, MeasuredProfile measured)
    : graph_(&graph), profile_(std::move(profile)) {
  if (!graph.inferred()) throw Error("cost model: the graph must be shape-inferred");
  if (profile_.layers.size() != graph.size())
    throw Error(fmt::format("cost model: profile of '{}' has {} layers, graph '{}' has {}", profile_.model,
                            profile_.layers.size(), graph.name(), graph.size()));
  if (measured == MeasuredProfile::NormalizeToEstimate) profile_ = normalize_to_estimate(graph, profile_);
}

// op_scale is only meaningful on the host basis it was fitted on: the estimate basis (the
// nominal host, or a profile normalised to it), or measured profiles of the very same CPU.
void CostModel::check_basis(const DeviceCalibration& device) const {
  if (!device.fit) return;  // no record (a hand-made calibration): taken as it is
  const FitRecord& fit = *device.fit;
  const bool estimate_model = on_estimate_basis(profile_);
  if (fit.host_basis == "estimate" && !estimate_model)
    throw InputError(
        device.file, "fit.host_basis",
        fmt::format("device '{}' is fitted on the estimate basis but the cost model keeps "
                    "measured times of '{}' as they are; scenarios and `coinfer costs` normalise "
                    "them to the estimate basis, which this file needs",
                    device.name, profile_.host_cpu));
  if (fit.host_basis == "profile" && estimate_model)
    throw InputError(
        device.file, "fit.host_basis",
        fmt::format("device '{}' is fitted on measured times of '{}', but scenarios and `coinfer "
                    "costs` use host times on the estimate basis; refit it with `coinfer calibrate "
                    "FILE --basis estimate --write`, which records {}",
                    device.name, fit.host_cpu, kEstimateFitExample));
  if (fit.host_basis == "profile" && fit.host_cpu != profile_.host_cpu)
    throw InputError(
        device.file, "fit.host_cpu",
        fmt::format("device '{}' is fitted on measured times of '{}', not of this profile's '{}'; "
                    "refit it with `coinfer calibrate FILE --basis estimate --write`, which records {}",
                    device.name, fit.host_cpu, profile_.host_cpu, kEstimateFitExample));
}

const Layer& CostModel::layer_at(std::size_t position) const {
  return graph_->layer(graph_->topological_order().at(position));
}

void CostModel::check_range(std::size_t first, std::size_t last) const {
  if (first > last || last >= size())
    throw Error(fmt::format("layer range [{}, {}] outside the {} layers of '{}'", first, last, size(),
                            graph_->name()));
}

double CostModel::host_time_s(std::size_t position) const { return profile_.layers.at(position).median_s; }

double CostModel::lanes_in_use(const DeviceCalibration& device, const Layer& layer) const {
  // A batch of B runs min(B, batch_lanes) inputs at once (DeviceCalibration::batch_lanes). Dense
  // fc layers are left out: their batch-B host time already amortises the weight reads (the
  // estimate's roofline, the batched GEMM), and lanes on top would make a batch cheaper than one input.
  if (profile_.batch <= 1 || device.batch_lanes <= 1 || op_class_of(layer) == OpClass::Fc) return 1.0;
  return static_cast<double>(std::min(profile_.batch, device.batch_lanes));
}

double CostModel::scale_of(std::size_t position, const DeviceCalibration& device) const {
  check_basis(device);
  double pinned = 1.0;  // a pinned figure of this model on this device (calibrate.hpp)
  if (!device.model_scale.empty())
    if (const auto it = device.model_scale.find(graph_->name()); it != device.model_scale.end())
      pinned = it->second;
  const Layer& layer = layer_at(position);
  return op_scale_for(device, layer) * pinned / lanes_in_use(device, layer);
}

double CostModel::layer_time_s(std::size_t position, const DeviceCalibration& device) const {
  if (device.sparse_model) {
    const double t = sparse_model_time_s(layer_at(position), *device.sparse_model);
    if (t >= 0.0) return t;
  }
  return host_time_s(position) * scale_of(position, device);
}

double CostModel::range_time_s(std::size_t first, std::size_t last, const DeviceCalibration& device,
                               bool use_groups) const {
  check_range(first, last);
  double device_s = 0.0, host_s = 0.0;
  for (std::size_t i = first; i <= last; ++i) {
    device_s += layer_time_s(i, device);
    host_s += host_time_s(i);
  }
  return with_group(first, last, device_s, host_s, use_groups);
}

double CostModel::with_group(std::size_t first, std::size_t last, double device_s, double host_s,
                             bool use_groups) const {
  const GroupTiming* group = use_groups ? profile_.group_or_null(first, last) : nullptr;
  if (!group || host_s <= 0.0) return device_s;
  // Grouped timing: the group's host time scaled by the host-time-weighted mean scale
  // sum_i(host_i * scale_i) / sum_i(host_i) = device_s / host_s.
  return group->stats.median_s * (device_s / host_s);
}

std::vector<double> CostModel::range_times_s(std::size_t first, const DeviceCalibration& device,
                                             bool use_groups) const {
  check_range(first, size() - 1);
  std::vector<double> times;
  double device_s = 0.0, host_s = 0.0;  // summed in the order range_time_s sums them
  for (std::size_t last = first; last < size(); ++last) {
    device_s += layer_time_s(last, device);
    host_s += host_time_s(last);
    times.push_back(with_group(first, last, device_s, host_s, use_groups));
  }
  return times;
}

double CostModel::range_energy_j(std::size_t first, std::size_t last, const DeviceCalibration& device,
                                 bool use_groups) const {
  return device.power.busy_w * range_time_s(first, last, device, use_groups);
}

double CostModel::total_time_s(const DeviceCalibration& device) const {
  return size() == 0 ? 0.0 : range_time_s(0, size() - 1, device);
}

}  // namespace coinfer
