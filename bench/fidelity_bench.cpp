// Fidelity of the host profile: for every zoo model, the predicted host time (sum of the
// per-layer medians measured by the profiler) against the measured whole-model forward time,
// both measured in this run. Then JointDNN sec. 2.2's experiment: 25 consecutive convolutions
// timed one by one (sum of separate medians) and as one group, for the first k = 1..25 of them.
//
//     fidelity_bench [--repeats N] [--models a,b,c] [--skip-zoo] [--skip-conv25]
//
// Targets (issue 3): median |error| <= 10%, worst <= 20%. Kernels run single-threaded.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/profiler.hpp"
#include "sim/report/table.hpp"

using namespace coinfer;

namespace {

struct Args {
  int repeats = 5;
  std::vector<std::string> models;
  bool zoo = true;
  bool conv25 = true;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeats" && i + 1 < argc)
      a.repeats = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--models" && i + 1 < argc) {
      std::stringstream ss(argv[++i]);
      for (std::string m; std::getline(ss, m, ',');) a.models.push_back(m);
    } else if (arg == "--skip-zoo")
      a.zoo = false;
    else if (arg == "--skip-conv25")
      a.conv25 = false;
    else {
      std::fprintf(stderr,
                   "usage: fidelity_bench [--repeats N] [--models a,b] [--skip-zoo] [--skip-conv25]\n");
      std::exit(2);
    }
  }
  if (a.models.empty())
    for (const auto& e : zoo()) a.models.push_back(e.name);
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void zoo_fidelity(const Args& a) {
  std::printf("== predicted (sum of per-layer medians) vs measured whole-model forward, %d repeats ==\n",
              a.repeats);
  TextTable t(
      {"model", "layers", "MACs", "predicted ms", "measured ms", "IQR ms", "error", "sum of means ms"},
      {false, true, true, true, true, true, true, true});
  std::vector<double> errors;
  for (const auto& name : a.models) {
    const Graph g = build_zoo_model(name);
    ProfileOptions o;
    o.repeats = a.repeats;
    o.use_cache = false;  // both sides measured in this run
    const HostProfile p = profile_model(g, o);
    const double predicted = p.range_sum_s(0, g.size() - 1);
    double sum_of_means = 0.0;
    for (const auto& l : p.layers) sum_of_means += l.mean_s;
    const TimingStats measured = time_forward(g, 1, a.repeats);
    const double error = 100.0 * (predicted - measured.median_s) / measured.median_s;
    errors.push_back(std::fabs(error));
    t.add_row({name, std::to_string(g.size()), format_count(g.total_macs()),
               fmt::format("{:.3f}", predicted * 1e3), fmt::format("{:.3f}", measured.median_s * 1e3),
               fmt::format("{:.3f}", measured.iqr_s * 1e3), fmt::format("{:+.1f}%", error),
               fmt::format("{:.3f}", sum_of_means * 1e3)});
    std::fflush(stdout);
  }
  std::printf("%s", t.str().c_str());
  std::printf("median |error| %.1f%% (target <= 10%%), worst %.1f%% (target <= 20%%)\n\n", median(errors),
              *std::max_element(errors.begin(), errors.end()));
}

// 25 convolutions, 3x3, 64 -> 64 channels on 28x28 with padding 1 (shape-preserving), no
// activations in between, as in JointDNN sec. 2.2 (there on a Pascal GPU with cuDNN).
Graph conv25() {
  GraphBuilder b("conv25");
  auto x = b.input("data", {64, 28, 28});
  for (int i = 1; i <= 25; ++i) x = b.conv(x, fmt::format("conv{}", i), 64, 3, 1, 1);
  return b.build();
}

void grouped_vs_separate(const Args& a) {
  std::printf("== JointDNN sec. 2.2: k consecutive convolutions, separate vs grouped, %d repeats ==\n",
              a.repeats);
  const Graph g = conv25();
  ProfileOptions o;
  o.repeats = a.repeats;
  o.use_cache = false;
  for (std::size_t k = 1; k <= 25; ++k) o.groups.emplace_back(1, k);
  const HostProfile p = profile_model(g, o);
  TextTable t({"k", "separate ms (sum)", "grouped ms", "grouped / separate"}, {true, true, true, true});
  for (std::size_t k = 1; k <= 25; ++k) {
    const double separate = p.range_sum_s(1, k);
    const double grouped = p.group_or_null(1, k)->stats.median_s;
    t.add_row({std::to_string(k), fmt::format("{:.3f}", separate * 1e3), fmt::format("{:.3f}", grouped * 1e3),
               fmt::format("{:.3f}", grouped / separate)});
  }
  std::printf("%s\n", t.str().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  if (a.zoo) zoo_fidelity(a);
  if (a.conv25) grouped_vs_separate(a);
  return 0;
}
