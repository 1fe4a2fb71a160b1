#pragma once
/// The device calibration files shipped in `platforms/calibration/`, found at run time (the
/// binary does not embed the source path): `$COINFER_CALIBRATION_DIR` if set, else the first
/// `platforms/calibration` folder in the executable's folder or one of its parents (a build
/// folder inside the repository), else in the working directory or one of its parents.
///
///     DeviceCalibration d = load_device("nexus5");                 // a shipped name
///     DeviceCalibration e = load_device("my/devices/phone.json");  // or a file
#include <string>
#include <vector>

#include "sim/calibration/device_calibration.hpp"

namespace coinfer::cli {

/// The folder of the shipped calibrations; throws `InputError` when none is found.
std::string shipped_calibration_dir();
/// The shipped calibration files, sorted by name (the file stems).
std::vector<std::string> shipped_device_names();
/// A shipped device by name, or a calibration file (a path with '/' or ending in `.json`).
/// Throws `InputError("", option, "unknown device 'x'; known: a, b (or a calibration .json file)")`.
DeviceCalibration load_device(const std::string& name_or_file, const std::string& option = "--device");

}  // namespace coinfer::cli
