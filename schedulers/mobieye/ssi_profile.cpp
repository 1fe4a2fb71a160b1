#include "schedulers/mobieye/ssi_profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/results_csv.hpp"

namespace coinfer::mobieye {
namespace {

std::size_t column(const std::vector<std::string>& header, const std::string& name, const std::string& file,
                   std::size_t line) {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end())
    throw InputError(file, fmt::format("line {}", line),
                     fmt::format("expected a '{}' column (density,dense_ms,ssi_ms,time_ratio)", name));
  return static_cast<std::size_t>(it - header.begin());
}

double number(const std::vector<std::string>& cells, std::size_t c, const char* name, const std::string& file,
              std::size_t line) {
  const std::string& cell = c < cells.size() ? cells[c] : std::string();
  char* end = nullptr;
  const double v = std::strtod(cell.c_str(), &end);
  if (cell.empty() || end != cell.c_str() + cell.size() || !std::isfinite(v))
    throw InputError(file, fmt::format("line {}", line),
                     fmt::format("column '{}': expected a number, got '{}'", name, cell));
  return v;
}

}  // namespace

double SsiProfile::ratio_at(double density) const {
  const auto& rows = ratio_by_density;
  if (density <= rows.front().first) return rows.front().second;
  if (density >= rows.back().first) return rows.back().second;
  std::size_t i = 1;
  while (rows[i].first < density) ++i;
  const auto& [d0, r0] = rows[i - 1];
  const auto& [d1, r1] = rows[i];
  return r0 + (r1 - r0) * (density - d0) / (d1 - d0);
}

SsiProfile parse_ssi_profile(const std::string& text, const std::string& file) {
  std::istringstream in(text);
  std::string raw;
  std::vector<std::string> header;
  std::size_t density_col = 0, ratio_col = 0, line = 0;
  SsiProfile profile;
  while (std::getline(in, raw)) {
    ++line;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (raw.empty() || raw.front() == '#') continue;
    const auto cells = csv_split(raw);
    if (header.empty()) {
      header = cells;
      density_col = column(header, "density", file, line);
      ratio_col = column(header, "time_ratio", file, line);
      continue;
    }
    const double density = number(cells, density_col, "density", file, line);
    const double ratio = number(cells, ratio_col, "time_ratio", file, line);
    const auto where = fmt::format("line {}", line);
    if (density < 0.0 || density > 1.0)
      throw InputError(file, where,
                       fmt::format("column 'density': expected a value in [0, 1], got {}", density));
    if (!profile.ratio_by_density.empty() && !(density > profile.ratio_by_density.back().first))
      throw InputError(file, where,
                       fmt::format("expected densities strictly increasing, got {} after {}", density,
                                   profile.ratio_by_density.back().first));
    if (!(ratio > 0.0))
      throw InputError(file, where, fmt::format("column 'time_ratio': expected a value > 0, got {}", ratio));
    profile.ratio_by_density.emplace_back(density, ratio);
  }
  if (profile.ratio_by_density.empty())
    throw InputError(file, "",
                     "expected a header line and at least one row (density,dense_ms,ssi_ms,time_ratio)");
  return profile;
}

SsiProfile read_ssi_profile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path, "", "file not found");
  return parse_ssi_profile(read_whole_file(path), path);
}

}  // namespace coinfer::mobieye
