#pragma once
/// The calibration file format (`platforms/calibration/*.json`, README "Calibration files"):
///
///     {"format": "coinfer-calibration/1", "name": "nexus5", "kind": "phone_cpu",
///      "precision": "fp32", "memory_bytes": 2147483648,
///      "op_scale": {"default": 9.1, "fc": 12.4},          // device time / host time, > 0
///      "power": {"idle_w": 0.6, "busy_w": 3.5},
///      "radio": {"wifi": {"uplink_alpha_mw_per_mbps": 283.17, "uplink_beta_mw": 132.86,
///                         "downlink_alpha_mw_per_mbps": 137.01, "downlink_beta_mw": 132.86}},
///      "sparse_model": {"density_threshold": 0.158},       // optional (MoDNN eq. 2.2)
///      "fit": {"host_cpu": "...", "host_basis": "profile"}, // written by `coinfer calibrate --write`
///      "references": [{"model": "vgg16", "quantity": "latency", "value": 15809, "unit": "ms",
///                      "source": "[MoDNN Table 1]", "fitted": true}],
///      "notes": "..."}
///
/// `op_scale` names op classes (sim/calibration/op_class.hpp); "default" covers every class
/// not listed, and without it every class must be listed. Reference quantities: "latency"
/// (`batch` forward passes) and "train_step" (one training step over a minibatch of `batch`),
/// in s, ms or us.
#include <string>

#include "sim/calibration/device_calibration.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer {

inline constexpr const char* kCalibrationFormat = "coinfer-calibration/1";

/// Parses a calibration from JSON; throws `InputError("", path, expectation)` for a missing
/// key, a non-positive scale, an unknown op class, kind, quantity or unit, or a value whose
/// unit is implausible (a latency over an hour, a power over 2 kW: probably ms/s or mW/W mixed).
DeviceCalibration calibration_from_json(const Json& json);
/// Reads and validates a calibration file; errors read `file: path: expectation`.
/// Example: `load_calibration_file("platforms/calibration/nexus5.json").op_scale.at("conv")`.
DeviceCalibration load_calibration_file(const std::string& path);
/// Canonical JSON of a calibration; `calibration_from_json(calibration_to_json(c))` equals `c`
/// (except `file`). op_scale is written as "default" (the most common value) plus overrides.
Json calibration_to_json(const DeviceCalibration& calibration);

/// JSON names of the enums: "phone_cpu", "phone_gpu", "npu", "edge_board", "gpu_server",
/// "cpu_server", "desktop"; "fp32", "fp16", "int8".
std::string device_kind_name(DeviceKind kind);
std::string precision_name(Precision precision);

/// Seconds per unit of a time unit ("s", "ms", "us"); throws `InputError` naming `path` otherwise.
double time_unit_seconds(const std::string& unit, const std::string& path);
/// A reference figure's value in seconds.
double reference_value_s(const ReferenceFigure& figure);
/// `YYYY-MM-DD` digits and dashes (a provenance date); the calendar is not checked.
bool is_iso_date(const std::string& s);

}  // namespace coinfer

namespace coinfer {

/// The text `coinfer calibrate --write` puts in a file: `calibration_to_json` with the
/// keys in schema order (format, name, kind, ..., references, notes), 2-space indent.
std::string calibration_file_text(const DeviceCalibration& calibration);

}  // namespace coinfer
