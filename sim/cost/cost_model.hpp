#pragma once
/// Time and energy of work on a calibrated device, and of moving a tensor over a link.
///
/// Compute: a layer's device time is its host time (from a HostProfile, basis "profile" or
/// "estimate") times the device's op_scale for the layer's op class; a range of consecutive
/// layers is the sum, or, when the profile timed that exact range as one group, the group's
/// host time times the host-time-weighted mean scale of its layers. Energy = busy_w * time.
///
/// Host basis: op_scale is relative to the host basis the device file was fitted on (its `fit`
/// record). By default a measured profile is normalised to the estimate basis the shipped files
/// use (sim/profile/estimate_normalization.hpp), so results do not depend on the host's speed;
/// `MeasuredProfile::AsMeasured` keeps this host's times, for files whose `fit` records measured
/// times of this host (`calibrate --write` writes only estimate-basis files, which scenarios
/// use). A device whose fit record names another basis (or, as measured, another CPU) is an
/// `InputError` naming its file and `fit`.
///
/// Transfer: time = latency_s + 8 * size_bytes / rate_bps; radio energy by JointDNN eq. 21,
/// P = alpha * throughput + beta (Table 3 gives alpha in mW/Mbps and beta in mW per network),
/// drawn while the bytes are on the air (8 * size_bytes / rate_bps).
///
///     CostModel cost(graph, estimate_host_profile(graph, HostSpeed::nominal()));
///     double t = cost.range_time_s(0, 10, nexus5);            // seconds on the Nexus 5
///     double e = transfer_energy_j(nexus5.radio.at("wifi"), LinkDirection::Uplink, 602112, 18.88e6);
#include <cstddef>

#include "sim/calibration/device_calibration.hpp"
#include "sim/graph/graph.hpp"
#include "sim/profile/host_profile.hpp"

namespace coinfer {

enum class LinkDirection { Uplink, Downlink };

/// Seconds to move `size_bytes` over a link of `rate_bps` bits/s with `latency_s` latency:
/// latency_s + 8 * size_bytes / rate_bps. Throws `Error` for rate <= 0 or negative inputs.
double transfer_time_s(double size_bytes, double rate_bps, double latency_s = 0.0);

/// JointDNN eq. 21: radio power in watts at `throughput_bps`,
/// (alpha [mW/Mbps] * throughput [Mbps] + beta [mW]) / 1000.
double radio_power_w(const RadioPowerModel& radio, LinkDirection direction, double throughput_bps);

/// Radio energy in joules of sending (Uplink) or receiving (Downlink) `size_bytes` at `rate_bps`:
/// radio_power_w(rate) * 8 * size_bytes / rate_bps.
double transfer_energy_j(const RadioPowerModel& radio, LinkDirection direction, double size_bytes,
                         double rate_bps);

/// What the cost model does with a profile that is not on the estimate basis.
enum class MeasuredProfile {
  NormalizeToEstimate,  ///< rescale per op class to the estimate basis (the shipped calibrations')
  AsMeasured,           ///< keep this host's times (devices fitted with `calibrate --basis profile`)
};

class CostModel {
 public:
  /// `profile` must hold one timing per layer of `graph` (same topological positions);
  /// throws `Error` otherwise. The graph must outlive the model.
  CostModel(const Graph& graph, HostProfile profile,
            MeasuredProfile measured = MeasuredProfile::NormalizeToEstimate);

  const Graph& graph() const { return *graph_; }
  const HostProfile& profile() const { return profile_; }
  std::size_t size() const { return profile_.layers.size(); }

  /// Host median time of the layer at topological position `position` (on the model's basis).
  double host_time_s(std::size_t position) const;
  /// Device time of one layer: host time * op_scale[class], or MoDNN's SPT/GET regression for
  /// fc layers when the device gives its slopes (sparse_model).
  double layer_time_s(std::size_t position, const DeviceCalibration& device) const;
  /// Device time of positions [first, last]; `use_groups` prefers a grouped timing of exactly
  /// that range when the profile has one. Throws `Error` on a bad range.
  double range_time_s(std::size_t first, std::size_t last, const DeviceCalibration& device,
                      bool use_groups = true) const;
  /// `range_time_s(first, last, device, use_groups)` for every last in [first, size() - 1], in
  /// O(size()) (the JointDNN problem's rows of grouped times). Throws `Error` on a bad `first`.
  std::vector<double> range_times_s(std::size_t first, const DeviceCalibration& device,
                                    bool use_groups = true) const;
  /// Busy energy of [first, last] on the device: power.busy_w * range_time_s.
  double range_energy_j(std::size_t first, std::size_t last, const DeviceCalibration& device,
                        bool use_groups = true) const;
  /// Device time of the whole model.
  double total_time_s(const DeviceCalibration& device) const;
  /// Device time / host time of one layer: op_scale of its class, times the device's pinned factor
  /// for this model (DeviceCalibration::model_scale) when a figure pins it, over min(B,
  /// batch_lanes) for a profile of batch B (DeviceCalibration::batch_lanes; dense fc layers
  /// excepted, whose batched host time already amortises their weight reads).
  double scale_of(std::size_t position, const DeviceCalibration& device) const;

 private:
  const Layer& layer_at(std::size_t position) const;
  /// Inputs of this profile's batch the device runs at once for `layer` (1 at batch 1).
  double lanes_in_use(const DeviceCalibration& device, const Layer& layer) const;
  void check_basis(const DeviceCalibration& device) const;
  void check_range(std::size_t first, std::size_t last) const;
  /// The time of [first, last] given its summed device and host times (a grouped timing if any).
  double with_group(std::size_t first, std::size_t last, double device_s, double host_s,
                    bool use_groups) const;

  const Graph* graph_;
  HostProfile profile_;
};

/// The op_scale entry for a layer's class; throws `Error` naming the device when absent.
double op_scale_for(const DeviceCalibration& device, const Layer& layer);

}  // namespace coinfer
