#pragma once
/// The host timing basis chosen on the command line: "profile" (real kernels timed by the
/// profiler, cached on disk) or "estimate" (the MACs-based estimate on the nominal reference
/// host, deterministic); `make_host_profile_source` throws `InputError` for another name.
#include <string>

#include "sim/calibration/calibrate.hpp"

namespace coinfer::cli {

HostProfileSource make_host_profile_source(const std::string& basis, int repeats);

/// The basis a calibration file is fitted on: `basis` as asked ("profile" or "estimate"), or with
/// "recorded" the one of the file's fit record, and the estimate (which every scenario uses) for
/// a file without one.
std::string host_basis_for(const std::string& basis, const DeviceCalibration& calibration);

}  // namespace coinfer::cli
