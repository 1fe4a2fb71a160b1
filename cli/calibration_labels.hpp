#pragma once
/// How `coinfer calibrate` names a reference figure and prints a time in a figure's unit, shared by
/// its refit table (calibrate_command.cpp) and its --held-out table (calibrate_held_out.cpp).
///
///     figure_label(f);          // "resnet101 latency x8 @[3,600,1000]" (batch and shape only when set)
///     in_unit(0.0123, "ms");    // "12.3 ms"
#include <string>

#include "sim/calibration/device_calibration.hpp"

namespace coinfer::cli {

/// The figure's model and quantity, then " xB" for a batch other than 1 and " @shape" when set.
std::string figure_label(const ReferenceFigure& f);

/// `seconds` in `unit` (a time unit of the calibration format, e.g. "ms"), 5 significant digits.
std::string in_unit(double seconds, const std::string& unit);

}  // namespace coinfer::cli
