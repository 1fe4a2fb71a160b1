#pragma once
/// A device calibration file (`platforms/calibration/*.json`) in memory: how fast a target
/// device runs each op class relative to the host that profiles the kernels, how much power
/// it draws, and the published figures it was fitted to (each with provenance).
/// The JSON schema is documented in README "Calibration files"; `load_calibration_file`
/// validates it and reports `file: path: expectation` on any problem.
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coinfer {

enum class DeviceKind { PhoneCpu, PhoneGpu, Npu, EdgeBoard, GpuServer, CpuServer, Desktop };
enum class Precision { Fp32, Fp16, Int8 };

/// Whole-device power draw in watts.
struct PowerStates {
  double idle_w = 0.0;
  double busy_w = 0.0;

  bool operator==(const PowerStates&) const = default;
};

/// JointDNN eq. 21: radio power P = alpha * throughput + beta, per direction
/// (alpha in mW per Mbps, beta in mW; JointDNN Table 3 gives them for 3G, 4G and WiFi).
struct RadioPowerModel {
  RadioPowerModel() = default;
  /// The four eq. 21 parameters, without a stated range.
  RadioPowerModel(double uplink_alpha, double uplink_beta, double downlink_alpha, double downlink_beta)
      : uplink_alpha_mw_per_mbps(uplink_alpha),
        uplink_beta_mw(uplink_beta),
        downlink_alpha_mw_per_mbps(downlink_alpha),
        downlink_beta_mw(downlink_beta) {}

  double uplink_alpha_mw_per_mbps = 0.0;
  double uplink_beta_mw = 0.0;
  double downlink_alpha_mw_per_mbps = 0.0;
  double downlink_beta_mw = 0.0;
  /// The throughputs [low, high] in Mbps the fit is stated for, per direction; absent: not
  /// stated. The replay warns about a transfer whose throughput lies outside (an extrapolation).
  std::optional<std::array<double, 2>> uplink_range_mbps;
  std::optional<std::array<double, 2>> downlink_range_mbps;
  std::string range_source;  ///< where the ranges come from; required with a range

  bool operator==(const RadioPowerModel&) const = default;
};

/// One published figure a calibration was fitted to (or checked against).
struct ReferenceFigure {
  std::string model;     ///< zoo model name, e.g. "vgg16"
  std::string quantity;  ///< what was measured, e.g. "latency"
  double value = 0.0;
  std::string unit;    ///< "ms", "s", "J", ...
  std::string source;  ///< e.g. "[MoDNN Table 1]"
  bool fitted = true;  ///< false: kept as a check, not used in the fit
  /// true: the figure is an input for its model on this device. Runs of that model scale its
  /// op-class times on this device so that the figure comes out exactly (model_scale).
  bool pinned = false;
  /// Inputs processed by the measured run (the figure covers `batch` forward passes, or one
  /// training step over a minibatch of `batch`).
  std::int64_t batch = 1;
  /// Input shape the figure was measured at when it differs from the model's own
  /// (e.g. ResNet-101 on 600x1000 video frames); empty: the model's input shape.
  std::vector<std::int64_t> input_shape;

  bool operator==(const ReferenceFigure&) const = default;
};

/// MoDNN's sparse/dense fully-connected model (thesis sec. 5.1, dissertation eq. 2.2): a
/// layer runs as SpMV when its weight density is below `density_threshold`, else as GEMV;
/// SPT(n) = spt_s_per_nonzero * n and GET(r,c) = get_s_per_element * r * c when the slopes
/// are known (0: not given; the cost model then uses op_scale for sparse_fc and fc).
struct SparseModel {
  double density_threshold = 0.0;
  double spt_s_per_nonzero = 0.0;
  double get_s_per_element = 0.0;

  bool operator==(const SparseModel&) const = default;
};

/// How the stored op_scale was fitted: on which host, with which host timing basis
/// ("profile": medians measured by the profiler; "estimate": the MACs-based host estimate).
struct FitRecord {
  std::string host_cpu;
  std::string host_basis;

  bool operator==(const FitRecord&) const = default;
};

/// One per-layer profile a calibration was fitted from (`coinfer calibrate --from-profile`).
struct ProfileSource {
  std::string file;    ///< path relative to the calibration file's folder (as found when fitted)
  std::string sha256;  ///< of the profile's bytes
  std::string format;  ///< "csv", "torch-trace", "tflite-csv"
  std::string model;   ///< the model it was measured on (zoo name or model file)
  int rows_matched = 0;

  bool operator==(const ProfileSource&) const = default;
};

/// Where a profile-fitted calibration came from: its profiles, the host times they were
/// fitted against ("estimate", or "profile": this host's kernels normalised to the estimate),
/// a free description and the date it was written (YYYY-MM-DD, UTC).
struct ProfileProvenance {
  std::string description;
  std::string date;
  std::string host_times;
  std::vector<ProfileSource> profiles;

  bool operator==(const ProfileProvenance&) const = default;
};

/// The device's video codec times per frame (a device fact, like its power): MobiEye's phones
/// encode H.264 and its server decodes it ([Mao-PhD §4.6.2]). NaN: not given.
struct CodecTimes {
  double encode_ms = std::numeric_limits<double>::quiet_NaN();  ///< one frame's H.264 encode
  double decode_ms = std::numeric_limits<double>::quiet_NaN();  ///< one frame's decode
  std::string source;                                           ///< e.g. "[Mao-PhD §4.6.2]"

  bool operator==(const CodecTimes& o) const {
    auto same = [](double a, double b) { return a == b || (a != a && b != b); };
    return same(encode_ms, o.encode_ms) && same(decode_ms, o.decode_ms) && source == o.source;
  }
};

struct DeviceCalibration {
  std::string name;  ///< e.g. "nexus5"
  DeviceKind kind = DeviceKind::PhoneCpu;
  Precision precision = Precision::Fp32;
  double memory_bytes = 0.0;
  /// Device time of an op class = host time * scale (op classes documented in README).
  std::map<std::string, double> op_scale;
  PowerStates power;
  /// Radio power per network kind ("wifi", "lte", "3g", "4g"), JointDNN eq. 21 / Table 3.
  std::map<std::string, RadioPowerModel> radio;
  std::vector<ReferenceFigure> references;
  /// Derived at load from the pinned figures, never written: per model graph name (the
  /// figure's model, `@CxHxW` with an input_shape), the factor on that model's op-class times, the
  /// figure's time over what op_scale predicts for it on the estimate basis.
  std::map<std::string, double> model_scale;
  std::optional<SparseModel> sparse_model;
  std::optional<CodecTimes> codec;  ///< `codec: {encode_ms?, decode_ms?, source}`
  /// Inputs of a batch the device runs at once (a GPU's lanes that one input leaves idle): a batch
  /// of B costs its batch-B host time x op_scale / min(B, batch_lanes), dense fc layers excepted
  /// (their batched host time already amortises the weight reads). 1: batches cost what the host's
  /// batched kernels say. Set by a platform's `batch_lanes` (platform_yaml.hpp), not by
  /// calibration files: no device file measures it yet.
  std::int64_t batch_lanes = 1;
  std::optional<FitRecord> fit;
  std::optional<ProfileProvenance> provenance;  ///< only for files fitted from profiles
  std::string notes;  ///< where the papers give too little: which public source the estimate follows
  std::string file;   ///< the file it was loaded from

  bool operator==(const DeviceCalibration&) const = default;
};

}  // namespace coinfer
