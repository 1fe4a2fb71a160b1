#include "cli/host_profile_source.hpp"

#include "sim/core/error.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/profile/profiler.hpp"

namespace coinfer::cli {

HostProfileSource make_host_profile_source(const std::string& basis, int repeats) {
  if (basis == "estimate")
    return [](const Graph& g) { return estimate_host_profile(g, HostSpeed::nominal()); };
  if (basis == "profile") {
    return [repeats](const Graph& g) {
      ProfileOptions o;
      o.repeats = repeats;
      return profile_model(g, o);
    };
  }
  throw InputError("", "basis", "expected 'profile' or 'estimate', got '" + basis + "'");
}

std::string host_basis_for(const std::string& basis, const DeviceCalibration& calibration) {
  if (basis != "recorded") return basis;
  return calibration.fit ? calibration.fit->host_basis : "estimate";
}

}  // namespace coinfer::cli
