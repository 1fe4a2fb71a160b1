#pragma once
/// Device time of a PART of a layer, for partitioners that split one layer over several devices
/// (MoDNN's stripes, tiles and weight blocks).
///
/// A share of a layer's outputs costs that share of the layer's device time: a conv stripe of
/// r of the layer's R output rows takes layer_time * r / R (MACs, and for pooling / activations
/// output elements, are linear in the outputs computed). Fully connected blocks follow MoDNN's
/// SPT / GET model (thesis sec. 5.1, dissertation eq. 2.2): GEMV on an r x c dense block takes
/// layer_time * r c / (R C); SpMV takes spt_s_per_nonzero per non-zero, where, when the device
/// gives only the density threshold Thld at which both take the same time, SPT(n) = GET(r, c) at
/// n = Thld r c gives spt_s_per_nonzero = gemv_s_per_element / Thld.
///
///     double t = partial_layer_time_s(cost, pos, nexus5, 56.0 / 224.0);   // one stripe of four
///     FcRates r = fc_rates(cost, pos, nexus5);                               // r.spmv_s_per_nonzero
#include <cstddef>

#include "sim/cost/cost_model.hpp"

namespace coinfer {

/// layer_time_s(position, device) * fraction; `fraction` in [0, 1], throws `Error` otherwise.
double partial_layer_time_s(const CostModel& cost, std::size_t position, const DeviceCalibration& device,
                            double fraction);

/// Per-element GEMV and per-non-zero SpMV time of a fully connected layer on a device.
struct FcRates {
  double gemv_s_per_element = 0.0;
  double spmv_s_per_nonzero = 0.0;
  double density_threshold = 0.0;  ///< Thld: SpMV below this density, GEMV at or above
};

/// Rates of the fc layer at `position` (its dense device time spread over inputs x units
/// elements). Throws `InputError` (path `devices.<name>.calibration`) when the device has no
/// sparse_model with a density threshold in (0, 1], and `Error` when the layer is not fc.
FcRates fc_rates(const CostModel& cost, std::size_t position, const DeviceCalibration& device);

}  // namespace coinfer
