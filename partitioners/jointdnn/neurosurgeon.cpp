#include "partitioners/jointdnn/neurosurgeon.hpp"

#include <algorithm>

namespace coinfer::jointdnn {
namespace {

/// Cost of every split p = 0..N, computed in O(N + skips):
///   latency(p) = Tm[0][p-1] + Tc[p][N-p-1] + sum_{k>p} Wt[k] + D[N] (p < N) + sum_{j in U(p)} U[j]
/// where U(p) = { j < N : j <= p < last consumer of j } are the outputs a mobile layer sends up.
std::vector<Cost> split_costs(const Problem& p) {
  const int n = p.layers;
  std::vector<Cost> cost(n + 1);
  // last_consumer[j] = max(j + 1 unless detached, every skip target of j), for j < N (j: none).
  std::vector<int> last_consumer(n);
  for (int j = 0; j < n; ++j) last_consumer[j] = p.reads_previous(j + 1) ? j + 1 : j;
  for (const auto& s : p.skips)
    last_consumer[s.from_layer] = std::max(last_consumer[s.from_layer], s.to_layer);
  std::vector<Cost> delta(n + 2);  // difference array over p of the uploads
  for (int j = 0; j < n; ++j) {
    delta[j].latency_s += p.upload_time_s[j];
    delta[last_consumer[j]].latency_s -= p.upload_time_s[j];
    if (p.has_energy()) {
      delta[j].energy_j += p.upload_energy_j[j];
      delta[last_consumer[j]].energy_j -= p.upload_energy_j[j];
    }
  }
  Cost uploads, weights;  // running sum of delta; suffix sum of weight downloads
  for (int k = 1; k <= n; ++k) {
    weights.latency_s += p.weight_download_time_s[k - 1];
    weights.energy_j += p.weight_download_energy_j[k - 1];
  }
  for (int split = 0; split <= n; ++split) {
    uploads.latency_s += delta[split].latency_s;
    uploads.energy_j += delta[split].energy_j;
    if (split > 0) {
      weights.latency_s -= p.weight_download_time_s[split - 1];
      weights.energy_j -= p.weight_download_energy_j[split - 1];
    }
    Cost& c = cost[split];
    c.latency_s = uploads.latency_s + weights.latency_s;
    c.energy_j = uploads.energy_j + weights.energy_j;
    if (split > 0) {
      c.latency_s += p.group_time_s(1, split, Side::mobile);
      c.energy_j += p.group_energy_j(1, split, Side::mobile);
    }
    if (split < n) {
      const double t = p.group_time_s(split + 1, n, Side::cloud);
      c.latency_s += t + p.download_time_s[n];
      c.cloud_time_s = t;
      if (p.has_energy()) c.energy_j += p.download_energy_j[n];
    }
  }
  return cost;
}

std::vector<Group> split_groups(int split, int n) {
  std::vector<Group> groups;
  if (split > 0) groups.push_back({1, split, Side::mobile});
  if (split < n) groups.push_back({split + 1, n, Side::cloud});
  return groups;
}

}  // namespace

Solution solve_neurosurgeon(const Problem& problem) {
  const auto cost = split_costs(problem);
  int best = -1;
  for (int split = 0; split <= problem.layers; ++split) {
    if (!within_limits(problem, cost[split])) continue;
    if (best < 0 || objective_value(problem, cost[split]) < objective_value(problem, cost[best]))
      best = split;
  }
  if (best < 0) return Solution{};
  return make_solution(problem, split_groups(best, problem.layers));
}

}  // namespace coinfer::jointdnn
