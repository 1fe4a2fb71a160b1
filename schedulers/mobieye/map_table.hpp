#pragma once
/// Detection accuracy (mAP) as a function of feature age: how many frames lie between a frame and the
/// key frame whose features it used. The dissertation gives no such table ([Mao-PhD §4.6.4] reports
/// only VDS's 70.6% at an average interval of 21.6), so it is an INPUT, with its source named.
#include <string>
#include <utility>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::mobieye {

/// mAP per feature age, from JSON `{source: "...", by_age: [[0, 0.76], [5, 0.74], ...]}`: ages
/// strictly increasing from 0, mAP values in [0, 1]; linear between rows, the last value beyond the
/// last row.
struct MapTable {
  std::string source;                             ///< where the numbers come from, non-empty
  std::vector<std::pair<double, double>> by_age;  ///< (age in frames, mAP), ages from 0 increasing

  /// mAP at `age` frames (>= 0, asserted). Example: rows (0, 0.76), (5, 0.74): at(2.5) = 0.75.
  double at(double age) const;
  /// Throws `InputError(file, path + ".by_age[2][0]", "expected ages strictly increasing, got 5
  /// after 5")` and the like.
  static MapTable from_json(const Json& j, const std::string& file, const std::string& path);
};

/// Mean over frames of table.at(age) (NaN for no frames). Example: ages {0, 5} with the rows above
/// -> (0.76 + 0.74) / 2 = 0.75.
double effective_map(const MapTable& table, const std::vector<std::size_t>& feature_ages);

}  // namespace coinfer::mobieye
