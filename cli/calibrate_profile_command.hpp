#pragma once
// `coinfer calibrate --from-profile FILE --model M [...] -o device.json`: a device calibration
// fitted from per-layer times measured on the device (sim/calibration/profile_fit.hpp), and the
// `--check` of such a file (a refit from the profiles its provenance records).
#include <string>
#include <vector>

#include "sim/calibration/device_calibration.hpp"

namespace coinfer::cli {

struct FromProfileOptions {
  std::vector<std::string> profiles;  ///< --from-profile, in order
  std::vector<std::string> models;    ///< --model, the k-th for the k-th profile
  std::vector<std::string> formats;   ///< --format: none (by extension), one for all, or one each
  std::string name;                   ///< empty or the stem of `output`
  std::string description;
  std::string kind = "cpu_server";
  std::string precision = "fp32";
  double idle_w = -1.0;
  double busy_w = -1.0;
  double memory_bytes = 4294967296.0;  ///< 4 GiB unless given
  std::string basis = "estimate";      ///< host times: "estimate" or "profile"
  std::string date;                    ///< YYYY-MM-DD; empty: today (UTC)
  bool held_out = false;
  std::string output;
  int repeats = 5;
};

/// Fits, prints the residual tables (and with `held_out` the leave-one-model-out table) and
/// writes the calibration atomically. Throws `InputError` naming the option or file on bad input.
void run_calibrate_from_profile(const FromProfileOptions& opts);

/// What `calibrate --check` verifies for a profile-fitted file: each recorded profile is found
/// next to the file (else it says so and checks nothing more) with the recorded sha256, and a
/// refit from them gives the stored op_scale (host times "estimate"; with "profile" the
/// differences are printed, as measured times vary between runs). Prints what it did; returns
/// the failures (empty = pass).
std::vector<std::string> check_profile_calibration(const DeviceCalibration& calibration, int repeats);

}  // namespace coinfer::cli
