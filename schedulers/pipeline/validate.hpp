#pragma once
/// Input checks shared by the pipeline solver cores (private to schedulers/pipeline/).
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer {

/// Accepted magnitudes of the pipeline problems' numbers (throughputs, data sizes, bandwidths,
/// ratios), in whatever unit the problem uses: [kPipelineMin, kPipelineMax] = [1e-30, 1e30] for the
/// positive ones, [0, 1e30] for the non-negative ones. Any real quantity fits that span in a sane
/// unit; products and quotients of two or three of them (thresholds Tp D nu_l / (gamma_r nu_r),
/// medians mean / D) stay within 1e+-90, finite and non-zero.
inline constexpr double kPipelineMin = 1e-30, kPipelineMax = 1e30;

/// `x` (> 0) when it is at least kPipelineMin; throws `InputError` at `path` otherwise.
inline double pipeline_positive_value(double x, const std::string& path) {
  if (!(x >= kPipelineMin))
    throw InputError("", path,
                     fmt::format("expected a number in [{}, {}], got {}", kPipelineMin, kPipelineMax, x));
  return x;
}

/// Number in [kPipelineMin, kPipelineMax] at `obj[key]`; throws `InputError` naming `path.key`.
inline double pipeline_positive_number(const Json& obj, const char* key, const std::string& path = "") {
  const double x = json_number(obj, key, path, 0.0, kPipelineMax);
  if (!(x > 0.0)) throw InputError("", join_path(path, key), fmt::format("expected a number > 0, got {}", x));
  return pipeline_positive_value(x, join_path(path, key));
}

}  // namespace coinfer
