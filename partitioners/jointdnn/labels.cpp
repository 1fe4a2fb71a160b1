#include "partitioners/jointdnn/labels.hpp"

#include <array>
#include <limits>

#include "partitioners/jointdnn/jointdnn_graph.hpp"
#include "sim/core/error.hpp"

namespace coinfer::jointdnn {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kResources = 3;  // latency, energy, cloud time
using Values = std::array<double, kResources>;

Values values_of(const Cost& c) { return {c.latency_s, c.energy_j, c.cloud_time_s}; }

/// Which resources a label must compare, and their maxima (inf when unbounded).
struct Criteria {
  int objective = 0;
  std::array<bool, kResources> tracked{};
  Values limit{kInf, kInf, kInf};
  bool any_limit = false;

  explicit Criteria(const Problem& p) {
    objective = p.objective == Objective::energy ? 1 : 0;
    tracked[objective] = true;
    const std::array<std::optional<double>, kResources> maxima{p.max_latency_s, p.max_energy_j,
                                                               p.max_cloud_time_s};
    for (int r = 0; r < kResources; ++r) {
      if (!maxima[r]) continue;
      tracked[r] = true;
      limit[r] = *maxima[r];
      any_limit = true;
    }
  }

  /// a is no worse than b in every tracked resource.
  bool dominates(const Values& a, const Values& b) const {
    for (int r = 0; r < kResources; ++r)
      if (tracked[r] && a[r] > b[r]) return false;
    return true;
  }
};

struct Label {
  Values v{};
  int pred = -1;  // label it extends (index in the arena)
  int from = 0;   // its boundary: this label's last group is [from + 1 .. node boundary]
  Side on = Side::mobile;
};

using Bounds = std::vector<std::vector<Values>>;  // [boundary][code]: cheapest completion per resource

/// Backward pass: bound[j][code][r] = min over edges e of (e.cost[r] + bound[e.last][e.to][r]),
/// each resource minimised on its own (a lower bound on what any completion costs).
Bounds completion_bounds(const JointDnnGraph& graph) {
  const int n = graph.layers();
  Bounds bound(n + 1);
  for (int j = 0; j <= n; ++j) bound[j].assign(graph.states(j), Values{kInf, kInf, kInf});
  for (auto& b : bound[n]) b = Values{0.0, 0.0, 0.0};
  std::vector<Edge> edges;
  for (int j = n - 1; j >= 0; --j) {
    for (std::size_t code = 0; code < graph.states(j); ++code) {
      graph.edges_from(j, code, edges);
      for (const auto& e : edges) {
        const Values c = values_of(e.cost);
        for (int r = 0; r < kResources; ++r)
          bound[j][code][r] = std::min(bound[j][code][r], c[r] + bound[e.last][e.to_code][r]);
      }
    }
  }
  return bound;
}

/// Adds `label` to the Pareto set `set` unless a member dominates it; drops members it dominates.
void insert_pareto(const Criteria& crit, std::vector<Label>& arena, std::vector<int>& set,
                   const Label& label) {
  for (int idx : set)
    if (crit.dominates(arena[idx].v, label.v)) return;
  std::size_t kept = 0;
  for (int idx : set)
    if (!crit.dominates(label.v, arena[idx].v)) set[kept++] = idx;
  set.resize(kept);
  set.push_back(static_cast<int>(arena.size()));
  arena.push_back(label);
}

}  // namespace

Solution solve_labels(const Problem& problem) {
  const JointDnnGraph graph(problem);
  const Criteria crit(problem);
  const int n = problem.layers;
  const Bounds bound = crit.any_limit ? completion_bounds(graph) : Bounds{};

  std::vector<Label> arena{Label{}};  // label 0: start node (0, 0), nothing spent
  std::vector<std::vector<std::vector<int>>> sets(n + 1);
  for (int j = 0; j <= n; ++j) sets[j].resize(graph.states(j));
  sets[0][0] = {0};
  std::vector<Edge> edges;
  for (int j = 0; j < n; ++j) {
    for (std::size_t code = 0; code < sets[j].size(); ++code) {
      if (sets[j][code].empty()) continue;
      graph.edges_from(j, code, edges);
      for (int idx : sets[j][code]) {
        for (const auto& e : edges) {
          Label next{arena[idx].v, idx, j, e.on};
          const Values c = values_of(e.cost);
          bool ok = true;
          for (int r = 0; r < kResources; ++r) {
            next.v[r] += c[r];
            if (crit.any_limit && crit.limit[r] < kInf)
              ok = ok && within_limit(next.v[r] + bound[e.last][e.to_code][r], crit.limit[r]);
          }
          if (ok) insert_pareto(crit, arena, sets[e.last][e.to_code], next);
        }
      }
      std::vector<int>().swap(sets[j][code]);  // finalised and extended: free it
    }
  }
  int best = -1;
  for (const auto& set : sets[n])
    for (int idx : set)
      if (best < 0 || arena[idx].v[crit.objective] < arena[best].v[crit.objective]) best = idx;
  if (best < 0) return Solution{};  // no schedule meets the maxima
  std::vector<Group> groups;
  for (int j = n, idx = best; j > 0;) {
    const Label& l = arena[idx];
    groups.insert(groups.begin(), Group{l.from + 1, j, l.on});
    j = l.from;
    idx = l.pred;
  }
  return make_solution(problem, std::move(groups));
}

}  // namespace coinfer::jointdnn
