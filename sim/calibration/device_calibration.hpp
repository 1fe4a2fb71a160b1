#pragma once
/// A device calibration file (`platforms/calibration/*.json`) in memory: how fast a target
/// device runs each op class relative to the host that profiles the kernels, how much power
/// it draws, and the published figures it was fitted to (each with provenance).
/// The JSON schema is documented in README "Calibration files"; `load_calibration_file`
/// validates it and reports `file: path: expectation` on any problem.
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
};

/// JointDNN eq. 21: radio power P = alpha * throughput + beta, per direction
/// (alpha in mW per Mbps, beta in mW; JointDNN Table 3 gives them for 3G, 4G and WiFi).
struct RadioPowerModel {
  double uplink_alpha_mw_per_mbps = 0.0;
  double uplink_beta_mw = 0.0;
  double downlink_alpha_mw_per_mbps = 0.0;
  double downlink_beta_mw = 0.0;
};

/// One published figure a calibration was fitted to (or checked against).
struct ReferenceFigure {
  std::string model;     ///< zoo model name, e.g. "vgg16"
  std::string quantity;  ///< what was measured, e.g. "latency"
  double value = 0.0;
  std::string unit;      ///< "ms", "s", "J", ...
  std::string source;    ///< e.g. "001_c5ab8492c17ff59e.txt Table 1"
  bool fitted = true;    ///< false: kept as a check, not used in the fit
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
  std::string notes;  ///< where the papers give too little: which public source the estimate follows
  std::string file;   ///< the file it was loaded from
};

}  // namespace coinfer
