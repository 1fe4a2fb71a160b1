// Fidelity of the host profile: for every zoo model, the predicted host time (sum of the
// per-layer medians measured by the profiler) against the measured whole-model forward time,
// both measured in this run, in alternating passes (sim/profile/profiler.hpp,
// `time_layers_and_forward`). Then JointDNN sec. 2.2's experiment: 25 consecutive convolutions
// timed one by one and as one group, for the first k = 1..25 of them.
//
//     fidelity_bench [--quick] [--repeats N] [--min-time S] [--models a,b,c] [--skip-zoo] [--skip-conv25]
//
// Every model gets at least N timed repeats per side, and more when one pass is short, so that
// each side runs for at least S seconds (small models are otherwise at the mercy of one
// interrupted pass). --quick: 3 repeats, S = 0.05, only models under 3 GMACs (about 15 s).
// Targets: median |error| <= 10%, worst <= 20%; the exit code is 1 when one is missed.
// Kernels run single-threaded; the clock is the thread's CPU time (see profiler.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/graph/graph_builder.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/profile/profiler.hpp"
#include "sim/report/table.hpp"

using namespace coinfer;

namespace {

constexpr double kQuickMaxMacs = 3e9;
constexpr int kMaxRepeats = 2000;

struct Args {
  int repeats = 5;
  double min_time_s = 0.25;
  bool quick = false;
  std::vector<std::string> models;
  bool zoo = true;
  bool conv25 = true;
};

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: fidelity_bench [--quick] [--repeats N] [--min-time S] [--models a,b] [--skip-zoo] "
               "[--skip-conv25]\n");
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  bool repeats_given = false, min_time_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeats" && i + 1 < argc)
      a.repeats = std::max(1, std::atoi(argv[++i])), repeats_given = true;
    else if (arg == "--min-time" && i + 1 < argc)
      a.min_time_s = std::max(0.0, std::atof(argv[++i])), min_time_given = true;
    else if (arg == "--models" && i + 1 < argc) {
      std::stringstream ss(argv[++i]);
      for (std::string m; std::getline(ss, m, ',');) a.models.push_back(m);
    } else if (arg == "--quick")
      a.quick = true;
    else if (arg == "--skip-zoo")
      a.zoo = false;
    else if (arg == "--skip-conv25")
      a.conv25 = false;
    else
      usage();
  }
  if (a.quick && !repeats_given) a.repeats = 3;
  if (a.quick && !min_time_given) a.min_time_s = 0.05;
  if (a.models.empty())
    for (const auto& e : zoo())
      if (!a.quick || build_zoo_model(e.name).total_macs() < kQuickMaxMacs) a.models.push_back(e.name);
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Expected time of one forward pass on this host: the MACs-based estimate at this host's GEMM speed.
double expected_pass_s(const Graph& g) {
  static const HostSpeed speed = measure_host_speed();
  return estimate_host_profile(g, speed).range_sum_s(0, g.size() - 1);
}

// Repeats so that one side runs for at least `min_time_s`, given one pass's time.
int repeats_for(const Args& a, double pass_s) {
  const double wanted = pass_s > 0.0 ? std::ceil(a.min_time_s / pass_s) : kMaxRepeats;
  return std::clamp(static_cast<int>(std::min<double>(wanted, kMaxRepeats)), a.repeats, kMaxRepeats);
}

bool zoo_fidelity(const Args& a) {
  std::printf(
      "== predicted (sum of per-layer medians) vs measured whole-model forward ==\n"
      "(same run, alternating passes; >= %d repeats and >= %.2f s per side)\n",
      a.repeats, a.min_time_s);
  TextTable t({"model", "layers", "MACs", "repeats", "predicted ms", "measured ms", "IQR ms", "error"},
              {false, true, true, true, true, true, true, true});
  std::vector<double> errors;
  for (const auto& name : a.models) {
    const Graph g = build_zoo_model(name);
    const int repeats = repeats_for(a, expected_pass_s(g));
    const PairedTiming p = time_layers_and_forward(g, 1, repeats);
    double predicted = 0.0;
    for (const auto& l : p.layers) predicted += l.median_s;
    const double measured = p.forward.median_s;
    const double error = 100.0 * (predicted - measured) / measured;
    errors.push_back(std::fabs(error));
    t.add_row({name, std::to_string(g.size()), format_count(g.total_macs()), std::to_string(repeats),
               fmt::format("{:.3f}", predicted * 1e3), fmt::format("{:.3f}", measured * 1e3),
               fmt::format("{:.3f}", p.forward.iqr_s * 1e3), fmt::format("{:+.1f}%", error)});
  }
  std::printf("%s", t.str().c_str());
  const double med = median(errors), worst = *std::max_element(errors.begin(), errors.end());
  const bool met = med <= 10.0 && worst <= 20.0;
  std::printf("%zu models: median |error| %.1f%% (target <= 10%%), worst %.1f%% (target <= 20%%): %s\n\n",
              errors.size(), med, worst, met ? "targets met" : "TARGET MISSED");
  return met;
}

// 25 convolutions, 3x3, 64 -> 64 channels on 28x28 with padding 1 (shape-preserving), no
// activations in between, as in JointDNN sec. 2.2 (there on a Pascal GPU with cuDNN).
Graph conv25() {
  GraphBuilder b("conv25");
  auto x = b.input("data", {64, 28, 28});
  for (int i = 1; i <= 25; ++i) x = b.conv(x, fmt::format("conv{}", i), 64, 3, 1, 1);
  return b.build();
}

// "isolated": each convolution run on its own, repeatedly (JointDNN's separate experiment: its
// weights and input stay cache-hot); "in pass": each convolution's median inside whole passes;
// "grouped": convolutions 1..k run together as one unit.
void grouped_vs_separate(const Args& a) {
  const Graph g = conv25();
  ProfileOptions o;
  // The shortest unit timed is one convolution (about 1/25 of a pass): enough repeats that ten
  // convolutions' worth of samples fill the minimum time keep its median steady.
  o.repeats = repeats_for(a, 10.0 * expected_pass_s(g) / 25.0);
  o.use_cache = false;
  for (std::size_t k = 1; k <= 25; ++k) o.groups.emplace_back(k, k), o.groups.emplace_back(1, k);
  std::printf(
      "== JointDNN sec. 2.2: k consecutive 3x3 convolutions (64 ch, 28x28), separate vs grouped, "
      "%d repeats ==\n",
      o.repeats);
  const HostProfile p = profile_model(g, o);
  TextTable t(
      {"k", "isolated sum ms", "in-pass sum ms", "grouped ms", "grouped / isolated", "grouped / in-pass"},
      {true, true, true, true, true, true});
  double isolated = 0.0;
  for (std::size_t k = 1; k <= 25; ++k) {
    isolated += p.group_or_null(k, k)->stats.median_s;
    const double in_pass = p.range_sum_s(1, k);
    const double grouped = p.group_or_null(1, k)->stats.median_s;
    t.add_row({std::to_string(k), fmt::format("{:.3f}", isolated * 1e3), fmt::format("{:.3f}", in_pass * 1e3),
               fmt::format("{:.3f}", grouped * 1e3), fmt::format("{:.3f}", grouped / isolated),
               fmt::format("{:.3f}", grouped / in_pass)});
  }
  std::printf("%s\n", t.str().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  bool met = true;
  if (a.zoo) met = zoo_fidelity(a);
  if (a.conv25) grouped_vs_separate(a);
  return met ? 0 : 1;
}
