#include "sim/cost/energy.hpp"

namespace coinfer {

double compute_energy_j(const PowerStates& power, double busy_s, double horizon_s) {
  return power.busy_w * busy_s + power.idle_w * (horizon_s - busy_s);
}

double radio_energy_j(double alpha_mw_per_mbps, double beta_mw, double bytes, double duration_s) {
  if (!(duration_s > 0.0)) return 0.0;
  const double throughput_mbps = 8.0 * bytes / duration_s / 1e6;
  const double power_mw = alpha_mw_per_mbps * throughput_mbps + beta_mw;
  return power_mw * duration_s / 1000.0;
}

}  // namespace coinfer
