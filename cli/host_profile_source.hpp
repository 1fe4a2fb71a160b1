#pragma once
/// The host timing basis chosen on the command line: "profile" (real kernels timed by the
/// profiler, cached on disk) or "estimate" (the MACs-based estimate on the nominal reference
/// host, deterministic). Throws `InputError` for another name.
#include <string>

#include "sim/calibration/calibrate.hpp"

namespace coinfer::cli {

HostProfileSource make_host_profile_source(const std::string& basis, int repeats);

}  // namespace coinfer::cli
