#include "schedulers/mobieye/map_table.hpp"

#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::mobieye {

double MapTable::at(double age) const {
  assert(age >= 0 && !by_age.empty());
  for (std::size_t i = 1; i < by_age.size(); ++i) {
    const auto [a0, m0] = by_age[i - 1];
    const auto [a1, m1] = by_age[i];
    if (age <= a1) return std::lerp(m0, m1, (age - a0) / (a1 - a0));
  }
  return by_age.back().second;
}

MapTable MapTable::from_json(const Json& j, const std::string& file, const std::string& path) {
  try {
    if (!j.is_object()) throw InputError("", path, "expected an object {source, by_age}");
    json_reject_unknown_keys(j, path, {"source", "by_age"});
    MapTable table;
    table.source = json_string(j, "source", path);
    if (table.source.empty())
      throw InputError("", join_path(path, "source"), "expected where the numbers come from, got ''");
    const auto rows_path = join_path(path, "by_age");
    const auto rows = json_number_matrix(j, "by_age", path);
    if (rows.empty()) throw InputError("", rows_path, "expected at least one [age, mAP] row");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto row_path = index_path(rows_path, i);
      if (rows[i].size() != 2)
        throw InputError("", row_path, fmt::format("expected [age, mAP], got {} numbers", rows[i].size()));
      const double age = rows[i][0], map = rows[i][1];
      if (i == 0 && age != 0)
        throw InputError("", index_path(row_path, 0), fmt::format("expected the first age 0, got {}", age));
      if (i > 0 && age <= rows[i - 1][0])
        throw InputError(
            "", index_path(row_path, 0),
            fmt::format("expected ages strictly increasing, got {} after {}", age, rows[i - 1][0]));
      if (!(map >= 0 && map <= 1))
        throw InputError("", index_path(row_path, 1), fmt::format("expected mAP in [0, 1], got {}", map));
      table.by_age.emplace_back(age, map);
    }
    return table;
  } catch (const InputError& e) {
    throw e.with_file(file);
  }
}

double effective_map(const MapTable& table, const std::vector<std::size_t>& feature_ages) {
  if (feature_ages.empty()) return std::nan("");
  double sum = 0;
  for (std::size_t age : feature_ages) sum += table.at(static_cast<double>(age));
  return sum / static_cast<double>(feature_ages.size());
}

}  // namespace coinfer::mobieye
