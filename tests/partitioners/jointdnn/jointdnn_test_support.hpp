#pragma once
// Shared by the JointDNN tests: seeded random problems and an exhaustive reference solver.
// The reference evaluator below is written independently of `evaluate_schedule` (it collects the
// set of sides each output must reach, then pays one crossing per missing side) so that the
// solvers are checked against the semantics jointdnn_problem.hpp states, not against themselves.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "partitioners/jointdnn/jointdnn_problem.hpp"

namespace coinfer::jointdnn::testing {

/// Every schedule of N layers: each of the 2^(N-1) groupings times 2^groups side choices.
inline std::vector<std::vector<Group>> all_schedules(int n) {
  std::vector<std::vector<Group>> out;
  for (unsigned cuts = 0; cuts < (1u << (n - 1)); ++cuts) {
    std::vector<std::pair<int, int>> ranges;
    int first = 1;
    for (int l = 1; l <= n; ++l)
      if (l == n || (cuts >> (l - 1) & 1u)) {  // a cut after layer l
        ranges.emplace_back(first, l);
        first = l + 1;
      }
    for (unsigned sides = 0; sides < (1u << ranges.size()); ++sides) {
      std::vector<Group> groups;
      for (std::size_t g = 0; g < ranges.size(); ++g)
        groups.push_back({ranges[g].first, ranges[g].second, (sides >> g & 1u) ? Side::cloud : Side::mobile});
      out.push_back(groups);
    }
  }
  return out;
}

/// Reference cost: for every output j, the set of sides its consumers run on; one crossing per
/// side in that set other than the producer's side.
inline Cost reference_cost(const Problem& p, const std::vector<Group>& groups) {
  const int n = p.layers;
  std::vector<Side> side(n + 1, Side::mobile);  // side[0]: the input, on the mobile
  Cost c;
  for (const auto& g : groups) {
    for (int k = g.first; k <= g.last; ++k) side[k] = g.on;
    if (g.on == Side::mobile) {
      c.latency_s += p.mobile_time_s[g.first - 1][g.last - g.first];
      if (p.has_energy()) c.energy_j += p.mobile_energy_j[g.first - 1][g.last - g.first];
    } else {
      c.latency_s += p.cloud_time_s[g.first - 1][g.last - g.first];
      c.cloud_time_s += p.cloud_time_s[g.first - 1][g.last - g.first];
      for (int k = g.first; k <= g.last; ++k) {
        c.latency_s += p.weight_download_time_s[k - 1];
        c.energy_j += p.weight_download_energy_j[k - 1];
      }
    }
  }
  for (int j = 0; j <= n; ++j) {
    std::set<Side> reach;
    if (j == n || p.reads_previous(j + 1)) reach.insert(j == n ? Side::mobile : side[j + 1]);
    for (const auto& s : p.skips)
      if (s.from_layer == j) reach.insert(side[s.to_layer]);
    for (Side target : reach) {
      if (target == side[j]) continue;
      if (target == Side::cloud) {
        c.latency_s += p.upload_time_s[j];
        if (p.has_energy()) c.energy_j += p.upload_energy_j[j];
      } else {
        c.latency_s += p.download_time_s[j];
        if (p.has_energy()) c.energy_j += p.download_energy_j[j];
      }
    }
  }
  return c;
}

inline bool meets(const Problem& p, const Cost& c) {
  auto ok = [](const std::optional<double>& max, double v) { return !max || within_limit(v, *max); };
  return ok(p.max_latency_s, c.latency_s) && ok(p.max_energy_j, c.energy_j) &&
         ok(p.max_cloud_time_s, c.cloud_time_s);
}

struct Reference {
  bool feasible = false;
  double objective = std::numeric_limits<double>::infinity();
  std::vector<Group> groups;
};

/// True for the schedules Neurosurgeon considers: one mobile prefix group, one cloud suffix group.
inline bool is_single_split(const std::vector<Group>& g) {
  if (g.size() == 1) return true;
  return g.size() == 2 && g[0].on == Side::mobile && g[1].on == Side::cloud;
}

/// Exhaustive optimum, optionally over single splits only.
inline Reference brute_force(const Problem& p, bool single_splits_only = false) {
  Reference best;
  for (const auto& groups : all_schedules(p.layers)) {
    if (single_splits_only && !is_single_split(groups)) continue;
    const Cost c = reference_cost(p, groups);
    if (!meets(p, c)) continue;
    const double v = p.objective == Objective::energy ? c.energy_j : c.latency_s;
    if (!best.feasible || v < best.objective) best = {true, v, groups};
  }
  return best;
}

inline bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

/// A solver's answer matches the exhaustive optimum: same feasibility, objective within 1e-9
/// relative, reported cost equal to the reference cost of its groups, maxima met.
inline bool agrees(const Problem& p, const Solution& s, const Reference& ref) {
  if (s.feasible != ref.feasible) return false;
  if (!s.feasible) return s.groups.empty();
  const Cost c = reference_cost(p, s.groups);
  const double v = p.objective == Objective::energy ? c.energy_j : c.latency_s;
  return close(v, ref.objective) && close(c.latency_s, s.cost.latency_s) &&
         close(c.energy_j, s.cost.energy_j) && close(c.cloud_time_s, s.cost.cloud_time_s) && meets(p, c);
}

/// A grouped-cost triangle whose groups are NOT additive: the group of layers i..j costs the sum
/// of its per-layer costs times a factor in [0.55, 1.15] (sec. 2.2: grouped != separate).
inline Json random_triangle(std::mt19937_64& rng, const std::vector<double>& per_layer) {
  std::uniform_real_distribution<double> factor(0.55, 1.15);
  const int n = static_cast<int>(per_layer.size());
  Json rows = Json::array();
  for (int i = 0; i < n; ++i) {
    Json row = Json::array();
    double sum = 0.0;
    for (int j = i; j < n; ++j) {
      sum += per_layer[j];
      row.push_back(j == i ? per_layer[j] : sum * factor(rng));
    }
    rows.push_back(row);
  }
  return rows;
}

struct RandomOptions {
  int max_layers = 6;
  bool skips = true;
  bool weights = true;
  bool energy = true;
  bool maxima = true;
};

/// A random problem (N in 1..max_layers): costs in (0, 3] (cloud compute 0.3x, transfers 0.5x), random skips,
/// optional weight downloads, random objective, and (70% of the time) random maxima drawn so that they often
/// bind and sometimes cannot be met. All draws come from `rng`.
inline Json random_problem(std::mt19937_64& rng, const RandomOptions& opt = {}) {
  std::uniform_int_distribution<int> layers_dist(1, opt.max_layers);
  std::uniform_real_distribution<double> u(0.05, 3.0);
  std::bernoulli_distribution coin(0.5);
  const int n = layers_dist(rng);
  auto vec = [&](int size) {
    std::vector<double> v(size);
    for (auto& x : v) x = u(rng);
    return v;
  };
  Json j;
  j["layers"] = n;
  j["mobile_time"] = random_triangle(rng, vec(n));
  auto cloud = vec(n);  // the cloud is faster: 0.3x the mobile's range, so offloading often pays
  for (auto& c : cloud) c *= 0.3;
  j["cloud_time"] = random_triangle(rng, cloud);
  auto transfer = [&]() {  // transfers at half the range, so offloading often pays
    auto v = vec(n + 1);
    for (auto& x : v) x *= 0.5;
    return v;
  };
  j["upload_time"] = transfer();
  j["download_time"] = transfer();
  const bool energy = opt.energy && coin(rng);
  if (energy) {
    j["mobile_energy"] = random_triangle(rng, vec(n));
    j["upload_energy"] = vec(n + 1);
    j["download_energy"] = vec(n + 1);
  }
  if (opt.weights && coin(rng)) {
    j["weight_download_time"] = vec(n);
    if (energy) j["weight_download_energy"] = vec(n);
  }
  if (opt.skips && coin(rng)) {
    Json skips = Json::array();
    for (int a = 0; a <= n - 2; ++a)
      for (int b = a + 2; b <= n; ++b)
        if (std::bernoulli_distribution(0.35)(rng)) skips.push_back({a, b});
    j["skips"] = skips;
  }
  j["objective"] = energy && coin(rng) ? "energy" : "latency";
  if (!opt.maxima || std::bernoulli_distribution(0.3)(rng)) return j;
  // Maxima. A constrained resource other than the objective: usually (70%) strictly below its
  // value in the unconstrained optimum, so the maximum binds (or cannot be met), else above it.
  // The objective itself (25%): around its optimum, below which the instance is infeasible.
  const Problem p = parse_problem(j);
  Cost lo{1e300, 1e300, 1e300};
  for (const auto& g : all_schedules(n)) {
    const Cost c = reference_cost(p, g);
    lo = {std::min(lo.latency_s, c.latency_s), std::min(lo.energy_j, c.energy_j),
          std::min(lo.cloud_time_s, c.cloud_time_s)};
  }
  const Cost best = reference_cost(p, brute_force(p).groups);
  auto uniform = [&](double a, double b) {
    return std::uniform_real_distribution<double>(a, std::max(a, b))(rng);
  };
  auto draw = [&](double low, double at_opt) {
    if (low < at_opt && std::bernoulli_distribution(0.7)(rng)) return uniform(low, at_opt);
    return uniform(at_opt, 1.2 * at_opt + 1e-6);
  };
  const bool energy_objective = j["objective"] == "energy";
  std::bernoulli_distribution often(0.6), sometimes(0.25);
  if (energy_objective ? often(rng) : sometimes(rng))
    j["max_latency"] = energy_objective ? draw(lo.latency_s, best.latency_s)
                                        : uniform(0.97 * best.latency_s, 1.1 * best.latency_s);
  if (energy && (energy_objective ? sometimes(rng) : often(rng)))
    j["max_energy"] = energy_objective ? uniform(0.97 * best.energy_j, 1.1 * best.energy_j)
                                       : draw(lo.energy_j, best.energy_j);
  if (often(rng)) j["max_cloud_time"] = draw(lo.cloud_time_s, best.cloud_time_s);
  return j;
}

/// The same problem without maxima.
inline Json without_maxima(Json j) {
  j.erase("max_latency");
  j.erase("max_energy");
  j.erase("max_cloud_time");
  return j;
}

/// Three layers; per-layer mobile 1, 5, 1 (groups of two or three cheaper than the sum), cloud 0.5
/// per layer (additive); only layer 1's and layer 2's outputs are cheap to move (up(1) = 0.5,
/// down(2) = 0.5). The hand-derived cases of several solvers' tests start from it.
inline Json three_layers() {
  return Json::parse(R"({
    "layers": 3,
    "mobile_time": [[1, 5.8, 6.5], [5, 6], [1]],
    "cloud_time": [[0.5, 1, 1.5], [0.5, 1], [0.5]],
    "upload_time": [10, 0.5, 10, 10],
    "download_time": [10, 10, 0.5, 10],
    "objective": "latency"})");
}

/// One layer. Mobile: 2 s, 4 J, no cloud time. Cloud: up(0) 1 s + 0.5 s + down(1) 1 s = 2.5 s;
/// energy up 1 J + down 0.5 J = 1.5 J; cloud time 0.5 s.
inline Json one_layer() {
  return Json::parse(R"({"layers": 1, "mobile_time": [[2]], "cloud_time": [[0.5]],
    "upload_time": [1, 0], "download_time": [0, 1], "mobile_energy": [[4]], "upload_energy": [1, 0],
    "download_energy": [0, 0.5], "objective": "energy"})");
}

}  // namespace coinfer::jointdnn::testing
