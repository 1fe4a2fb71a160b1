#pragma once
/// The time of an inter pass with sparse spatial inference (SSI) relative to the dense pass, by
/// mask density [Mao-PhD §4.5]: a CSV `density,dense_ms,ssi_ms,time_ratio` (one row per measured
/// density, densities strictly increasing in [0, 1], time_ratio > 0; lines starting with '#' are
/// comments; other columns are ignored). Between rows linear in density, beyond the ends the end
/// rows' ratio.
///
///     const auto p = mobieye::read_ssi_profile("platforms/ssi/flownet_dff_host.csv");
///     const double ratio = p.ratio_at(0.25);  // multiply the dense inter time by this
#include <string>
#include <utility>
#include <vector>

namespace coinfer::mobieye {

struct SsiProfile {
  std::vector<std::pair<double, double>> ratio_by_density;  ///< (density, time_ratio), density increasing
  double ratio_at(double density) const;
};

/// Parses profile text; `file` names it in errors: `InputError(file, "line 4", "expected densities
/// strictly increasing, got 0.2 after 0.3")` and the like (at least one row).
SsiProfile parse_ssi_profile(const std::string& text, const std::string& file);
/// Reads a profile file; a missing file is an `InputError` naming it.
SsiProfile read_ssi_profile(const std::string& path);

}  // namespace coinfer::mobieye
