#include "cli/calibrate_held_out.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "cli/calibration_labels.hpp"
#include "cli/host_profile_source.hpp"
#include "sim/calibration/calibration_json.hpp"
#include "sim/calibration/held_out_figures.hpp"
#include "sim/metrics/percentile.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

void print_file(const DeviceCalibration& c, const HeldOutFigures& h) {
  std::cout << fmt::format("{} ({}): leave-one-figure-out, host basis {} on '{}'\n", c.name, c.file,
                           h.record.host_basis, h.record.host_cpu);
  TextTable t({"left out", "reference", "predicted", "error", "source"}, {false, true, true, true, false});
  for (const auto& r : h.figures) {
    t.add_row({figure_label(r.figure), fmt::format("{} {}", r.figure.value, r.figure.unit),
               in_unit(r.predicted_s, r.figure.unit), fmt::format("{:+.1f}%", r.error_pct), r.figure.source});
  }
  std::cout << t.str() << "\n";
}

}  // namespace

void print_held_out_figures(const std::vector<std::string>& files, const std::string& basis, int repeats) {
  std::map<std::string, HostProfileSource> sources;
  std::vector<double> abs_errors;
  std::vector<std::string> skipped;
  std::size_t reported = 0;
  for (const auto& file : files) {
    const DeviceCalibration c = load_calibration_file(file);
    const std::string b = host_basis_for(basis, c);
    if (!sources.contains(b)) sources[b] = make_host_profile_source(b, repeats);
    const HeldOutFigures h = held_out_figures(c, sources.at(b));
    if (h.figures.empty()) {
      skipped.push_back(c.name);
      continue;
    }
    print_file(c, h);
    ++reported;
    for (const auto& r : h.figures) abs_errors.push_back(std::fabs(r.error_pct));
  }
  if (!abs_errors.empty())
    std::cout << fmt::format("held-out: {} figure(s) in {} file(s); |error| median {:.1f}%, max {:.1f}%\n",
                             abs_errors.size(), reported, percentile_nearest_rank(abs_errors, 50),
                             *std::max_element(abs_errors.begin(), abs_errors.end()));
  if (!skipped.empty())
    std::cout << fmt::format("fewer than two fitted figures, not reported: {}\n", fmt::join(skipped, ", "));
}

}  // namespace coinfer::cli
