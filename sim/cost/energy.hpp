#pragma once
/// Energy models (pure functions): a device's busy/idle compute energy and its radio's power while
/// it sends or receives. The replay charges them to every run; partitioners (JointDNN's energy
/// objective) weigh them when they choose a plan.
///
///     compute_energy_j({0.6, 3.5}, 2.0, 10.0) == 3.5 * 2 + 0.6 * 8
///     radio_energy_j(283.17, 132.86, 1e6, 1.0)  // JointDNN eq. 21 over a 8 Mbps second
#include "sim/calibration/device_calibration.hpp"

namespace coinfer {

/// Busy/idle energy of a device over [0, horizon_s]: busy_w * busy_s + idle_w * (horizon_s -
/// busy_s), in joules.
double compute_energy_j(const PowerStates& power, double busy_s, double horizon_s);

/// JointDNN eq. 21: radio power P = alpha * throughput + beta (mW, throughput in Mbps) while a
/// transfer of `bytes` lasts `duration_s`; throughput = 8 * bytes / duration_s / 1e6.
/// Returns P * duration_s in joules (0 for a zero duration).
double radio_energy_j(double alpha_mw_per_mbps, double beta_mw, double bytes, double duration_s);

}  // namespace coinfer
