#pragma once
// Seeded random CBO instances and exhaustive searches for the cbo-optimal / cbo-online tests.
// The exhaustive searches re-implement the timing rule of cbo_problem.hpp from scratch (they do not call the
// library's helpers), so a shared timing bug cannot hide.
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

#include "schedulers/cbo/cbo_problem.hpp"

namespace coinfer::cbo::testing {

/// A small instance: 1..max_frames frames, 1..max_resolutions resolutions. About a third of the
/// instances use multiples of 1/8 for accuracies, confidences and times, so that ties (equal
/// times, equal accuracies, equal confidences) occur and are summed exactly.
inline Problem random_problem(std::mt19937_64& rng, std::size_t max_frames, std::size_t max_resolutions) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto pick = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  const bool grid = pick(0, 2) == 0;
  auto prob = [&] { return grid ? static_cast<double>(pick(0, 8)) / 8.0 : unit(rng); };

  Problem p;
  const std::size_t n = pick(1, max_frames);
  const std::size_t r_count = pick(1, max_resolutions);
  for (std::size_t r = 0; r < r_count; ++r) p.server_accuracy.push_back(prob());
  p.bandwidth_bps = grid ? 8.0 : 4.0 + 12.0 * unit(rng);  // sizes below are 0..1 bit-seconds-ish
  p.server_time_s = grid ? static_cast<double>(pick(0, 2)) / 8.0 : 0.2 * unit(rng);
  p.latency_s = grid ? static_cast<double>(pick(0, 1)) / 8.0 : 0.1 * unit(rng);
  p.deadline_s = grid ? static_cast<double>(pick(2, 10)) / 8.0 : 0.3 + 1.0 * unit(rng);
  p.uplink_free_at_s = pick(0, 3) == 0 ? (grid ? 0.25 : 0.3 * unit(rng)) : 0.0;
  double arrival_s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    Frame f;
    arrival_s += grid ? static_cast<double>(pick(0, 2)) / 8.0 : 0.15 * unit(rng);
    f.arrival_s = arrival_s;
    f.confidence = prob();
    f.local_accuracy = prob();
    for (std::size_t r = 0; r < r_count; ++r)
      f.sizes_bits.push_back(grid ? static_cast<double>(pick(0, 8)) : 8.0 * unit(rng));
    p.frames.push_back(f);
  }
  return p;
}

/// The same instance with its frames shuffled (arrivals no longer sorted), for cbo-online.
inline Problem shuffled(Problem p, std::mt19937_64& rng) {
  std::shuffle(p.frames.begin(), p.frames.end(), rng);
  return p;
}

/// Calls `visit(decisions)` for every vector in {-1, 0, .., R-1}^n.
template <class Visit>
void for_each_decision_vector(std::size_t n, std::size_t resolutions, Visit visit) {
  std::vector<int> d(n, -1);
  while (true) {
    visit(d);
    std::size_t i = 0;
    while (i < n && d[i] == static_cast<int>(resolutions) - 1) d[i++] = -1;
    if (i == n) return;
    ++d[i];
  }
}

/// The timing rule of cbo_problem.hpp, written out independently: true iff every offloaded frame is on time
/// when frames are processed in `order`.
inline bool feasible(const Problem& p, const std::vector<int>& d, const std::vector<std::size_t>& order) {
  double previous_end_s = 0;
  for (const std::size_t i : order) {
    if (d[i] < 0) continue;
    const Frame& f = p.frames[i];
    const double start_s = std::max({f.arrival_s, previous_end_s, p.uplink_free_at_s});
    const double end_s = start_s + f.sizes_bits[static_cast<std::size_t>(d[i])] / p.bandwidth_bps;
    if (end_s + p.server_time_s + p.latency_s > f.arrival_s + p.deadline_s) return false;
    previous_end_s = end_s;
  }
  return true;
}

inline std::vector<std::size_t> identity_order(std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

/// Largest total accuracy over all feasible decision vectors in arrival (= input) order.
inline double exhaustive_best_total_accuracy(const Problem& p) {
  const auto order = identity_order(p.frames.size());
  double best = -1;
  for_each_decision_vector(p.frames.size(), p.resolutions(), [&](const std::vector<int>& d) {
    if (!feasible(p, d, order)) return;
    double total = 0;
    for (const std::size_t i : order)
      total += d[i] < 0 ? p.frames[i].local_accuracy : p.server_accuracy[static_cast<std::size_t>(d[i])];
    best = std::max(best, total);
  });
  return best;
}

/// Input indices by descending confidence, ties in input order (Algorithm 1's processing order).
inline std::vector<std::size_t> by_descending_confidence(const Problem& p) {
  auto order = identity_order(p.frames.size());
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return p.frames[a].confidence > p.frames[b].confidence;
  });
  return order;
}

/// Largest total gain sum(A^o_r - A^npu) over feasible vectors in confidence order. With
/// `only_resolution` >= 0, every offloaded frame must use that resolution.
inline double exhaustive_best_gain(const Problem& p, int only_resolution = -1) {
  const auto order = by_descending_confidence(p);
  double best = 0;  // offloading nothing is always feasible
  for_each_decision_vector(p.frames.size(), p.resolutions(), [&](const std::vector<int>& d) {
    double gain = 0;
    for (const std::size_t i : order) {
      if (d[i] < 0) continue;
      if (only_resolution >= 0 && d[i] != only_resolution) return;
      gain += p.server_accuracy[static_cast<std::size_t>(d[i])] - p.frames[i].local_accuracy;
    }
    if (gain > best && feasible(p, d, order)) best = gain;
  });
  return best;
}

/// A problem without frames at bandwidth 1 bit/s, so sizes read as upload seconds (hand-derived
/// cases keep every number a multiple of 1/8): one resolution of accuracy 1, deadline 1 s.
inline Json base_problem() {
  return Json{{"server_accuracy", {1.0}}, {"bandwidth", 1},         {"server_time", 0}, {"latency", 0},
              {"deadline", 1.0},          {"frames", Json::array()}};
}

/// One frame of a problem JSON.
inline Json frame(double arrival, double confidence, double local, std::vector<double> sizes) {
  return Json{{"arrival", arrival}, {"confidence", confidence}, {"local_accuracy", local}, {"sizes", sizes}};
}

}  // namespace coinfer::cbo::testing
