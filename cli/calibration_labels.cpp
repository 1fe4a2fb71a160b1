#include "cli/calibration_labels.hpp"

#include <fmt/format.h>

#include "sim/calibration/calibration_json.hpp"
#include "sim/graph/shape.hpp"

namespace coinfer::cli {

std::string figure_label(const ReferenceFigure& f) {
  std::string label = fmt::format("{} {}", f.model, f.quantity);
  if (f.batch != 1) label += fmt::format(" x{}", f.batch);
  if (!f.input_shape.empty()) label += " @" + shape_to_string(f.input_shape);
  return label;
}

std::string in_unit(double seconds, const std::string& unit) {
  return fmt::format("{:.5g} {}", seconds / time_unit_seconds(unit, "unit"), unit);
}

}  // namespace coinfer::cli
