#pragma once
/// `coinfer calibrate --held-out FILE...`: the leave-one-figure-out report of calibration files
/// (sim/calibration/held_out_figures.hpp), printed as one table per file with two or more fitted
/// figures and a summary line. `basis` as for `calibrate`: recorded, profile or estimate.
#include <string>
#include <vector>

namespace coinfer::cli {

void print_held_out_figures(const std::vector<std::string>& files, const std::string& basis, int repeats);

}  // namespace coinfer::cli
