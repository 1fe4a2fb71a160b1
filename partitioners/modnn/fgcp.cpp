#include "partitioners/modnn/fgcp.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "partitioners/modnn/mscc.hpp"
#include "partitioners/modnn/solver_limits.hpp"
#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

// Accepted ranges (README "Adding an algorithm", solver ranges). Why each bound:
// - rows, cols and workers: solver_limits.hpp.
// - seconds per non-zero in [0, 3600] (an hour per multiply-add is slower than any device) and
//   throughput_bps in [1, 1e12] as a platform's link rates: ET sums stay finite (64 / 1e-300 bps
//   per value was inf).
constexpr double kMaxSecondsPerNonZero = 3600.0;
constexpr double kMinThroughput_bps = 1.0, kMaxThroughput_bps = 1e12;

double value_time_s(const FgcpProblem& p) { return double(p.bytes_per_value) * 8.0 / p.throughput_bps; }

/// ET of a worker (or of the GO's compute plus the whole transfer) from its counts.
double node_et_s(std::int64_t nonzeros, double s_per_nonzero, std::int64_t values, double value_s) {
  return double(nonzeros) * s_per_nonzero + double(values) * value_s;
}

void check_problem(const FgcpProblem& p) {
  check_pattern_bounds(p.pattern);
  const auto k = p.worker_s_per_nonzero.size();
  if (k == 0 || k > std::size_t(kMaxWorkers))
    throw Error(fmt::format("fgcp: expected 1..{} workers, got {}", kMaxWorkers, k));
  if (p.row_cluster.size() != std::size_t(p.pattern.rows) ||
      p.col_cluster.size() != std::size_t(p.pattern.cols))
    throw Error("fgcp: row_cluster / col_cluster sizes differ from rows / cols");
  for (const auto* labels : {&p.row_cluster, &p.col_cluster})
    for (const int c : *labels)
      if (c < 0 || std::size_t(c) >= k) throw Error(fmt::format("fgcp: cluster {} outside [0, {})", c, k));
  for (const double s : p.worker_s_per_nonzero)
    if (!(s >= 0.0) || !std::isfinite(s)) throw Error("fgcp: worker_s_per_nonzero must be finite and >= 0");
  if (!(p.go_s_per_nonzero >= 0.0) || !std::isfinite(p.go_s_per_nonzero))
    throw Error("fgcp: go_s_per_nonzero must be finite and >= 0");
  if (!(p.throughput_bps > 0.0) || !std::isfinite(p.throughput_bps))
    throw Error("fgcp: throughput_bps must be finite and > 0");
  if (p.bytes_per_value < 1) throw Error("fgcp: bytes_per_value must be >= 1");
}

/// The incremental state of step 3: per-worker counts, plus how many of a worker's non-zeros sit on
/// each "home" index (the row when units are columns, else the column). A home index belongs to one
/// worker only (its cluster), so one counter per index suffices.
struct OffloadState {
  std::vector<std::int64_t> nonzeros, homes, units;
  std::vector<std::int64_t> home_count;
  std::int64_t go_nonzeros = 0;
  std::int64_t total_values = 0;
};

/// One offload candidate: worker `worker`'s outliers in unit `unit`, entries keyed[begin, end).
struct Group {
  std::int64_t unit = 0;
  std::size_t begin = 0, end = 0;
  std::size_t size() const { return end - begin; }
};

}  // namespace

FgcpCosts fgcp_costs(const FgcpProblem& p, const std::vector<int>& assignment) {
  assert(assignment.size() == p.pattern.entries.size());
  const std::size_t k = p.worker_s_per_nonzero.size();
  FgcpCosts c;
  c.worker_nonzeros.assign(k, 0);
  c.worker_input_values.assign(k, 0);
  c.worker_output_values.assign(k, 0);
  // Distinct rows / columns per worker: visit entries grouped by worker, stamping the last worker.
  std::vector<std::size_t> order(assignment.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return assignment[a] < assignment[b]; });
  std::vector<int> row_seen(std::size_t(p.pattern.rows), kGroupOwner - 1),
      col_seen(std::size_t(p.pattern.cols), kGroupOwner - 1);
  for (const auto e : order) {
    const int w = assignment[e];
    const auto& nz = p.pattern.entries[e];
    if (w == kGroupOwner) {
      ++c.go_nonzeros;
      continue;
    }
    assert(w >= 0 && std::size_t(w) < k);
    ++c.worker_nonzeros[w];
    if (row_seen[nz.row] != w) row_seen[nz.row] = w, ++c.worker_input_values[w];
    if (col_seen[nz.col] != w) col_seen[nz.col] = w, ++c.worker_output_values[w];
  }
  const double value_s = value_time_s(p);
  std::int64_t values = 0;
  for (std::size_t w = 0; w < k; ++w) {
    const auto v = c.worker_input_values[w] + c.worker_output_values[w];
    values += v;
    c.worker_et_s.push_back(node_et_s(c.worker_nonzeros[w], p.worker_s_per_nonzero[w], v, value_s));
  }
  c.go_et_s = node_et_s(c.go_nonzeros, p.go_s_per_nonzero, values, value_s);
  c.et_s = std::max(c.go_et_s, *std::max_element(c.worker_et_s.begin(), c.worker_et_s.end()));
  c.transfer_bytes = values * p.bytes_per_value;
  return c;
}

std::vector<int> fgcp_initial_assignment(const FgcpProblem& p) {
  const bool by_row = p.pattern.cols <= p.pattern.rows;
  std::vector<int> a(p.pattern.entries.size());
  for (std::size_t e = 0; e < a.size(); ++e) {
    const auto& nz = p.pattern.entries[e];
    a[e] = by_row ? p.row_cluster[nz.row] : p.col_cluster[nz.col];  // inside entries agree either way
  }
  return a;
}

FgcpSolution fgcp_partition(const FgcpProblem& p) {
  check_problem(p);
  const std::size_t k = p.worker_s_per_nonzero.size();
  const bool by_row = p.pattern.cols <= p.pattern.rows;
  const auto& entries = p.pattern.entries;
  auto home = [&](std::size_t e) { return by_row ? entries[e].row : entries[e].col; };
  auto unit = [&](std::size_t e) { return by_row ? entries[e].col : entries[e].row; };
  const auto& unit_cluster = by_row ? p.col_cluster : p.row_cluster;

  FgcpSolution s;
  s.unit = by_row ? OffloadUnit::Column : OffloadUnit::Row;
  s.assignment = fgcp_initial_assignment(p);
  s.initial = fgcp_costs(p, s.assignment);

  OffloadState st;
  st.nonzeros = s.initial.worker_nonzeros;
  st.homes = by_row ? s.initial.worker_input_values : s.initial.worker_output_values;
  st.units = by_row ? s.initial.worker_output_values : s.initial.worker_input_values;
  st.home_count.assign(std::size_t(by_row ? p.pattern.rows : p.pattern.cols), 0);
  for (std::size_t e = 0; e < entries.size(); ++e) ++st.home_count[home(e)];
  for (std::size_t w = 0; w < k; ++w) st.total_values += st.homes[w] + st.units[w];

  // Outliers grouped by (worker, unit); each worker's groups sorted by (size, unit). The sort runs
  // on (worker * units + unit, entry) pairs held side by side, not on entry numbers that would look
  // their keys up: the same order, without a cache miss per comparison.
  const std::int64_t units = by_row ? p.pattern.cols : p.pattern.rows;
  std::vector<std::pair<std::int64_t, std::size_t>> keyed;
  for (std::size_t e = 0; e < entries.size(); ++e)
    if (unit_cluster[unit(e)] != s.assignment[e]) keyed.emplace_back(s.assignment[e] * units + unit(e), e);
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::vector<Group>> groups(k);
  for (std::size_t t = 0; t < keyed.size();) {
    const std::int64_t key = keyed[t].first;
    std::size_t end = t;
    while (end < keyed.size() && keyed[end].first == key) ++end;
    groups[std::size_t(key / units)].push_back({key % units, t, end});
    t = end;
  }
  for (auto& g : groups)
    std::stable_sort(g.begin(), g.end(), [](const Group& a, const Group& b) { return a.size() < b.size(); });
  std::vector<std::size_t> next(k, 0);

  const double value_s = value_time_s(p);
  auto worker_et = [&](std::size_t w) {
    return node_et_s(st.nonzeros[w], p.worker_s_per_nonzero[w], st.homes[w] + st.units[w], value_s);
  };
  auto go_et = [&](std::int64_t go_nonzeros, std::int64_t values) {
    return node_et_s(go_nonzeros, p.go_s_per_nonzero, values, value_s);
  };
  for (;;) {
    std::size_t worst = 0;
    double et = go_et(st.go_nonzeros, st.total_values);
    std::vector<double> ets(k);
    for (std::size_t w = 0; w < k; ++w) {
      ets[w] = worker_et(w);
      if (ets[w] > ets[worst]) worst = w;
      et = std::max(et, ets[w]);
    }
    if (next[worst] == groups[worst].size()) break;
    const Group& g = groups[worst][next[worst]];
    // Moving the group: the worker loses its non-zeros, the unit (it is outside its cluster, so the
    // group holds all of the worker's non-zeros in it) and every home index left without non-zeros.
    std::int64_t dropped = 0;
    for (std::size_t t = g.begin; t < g.end; ++t) dropped += st.home_count[home(keyed[t].second)] == 1;
    const auto n = std::int64_t(g.size());
    const double worker_after = node_et_s(st.nonzeros[worst] - n, p.worker_s_per_nonzero[worst],
                                          st.homes[worst] - dropped + st.units[worst] - 1, value_s);
    double et_after = std::max(worker_after, go_et(st.go_nonzeros + n, st.total_values - dropped - 1));
    for (std::size_t w = 0; w < k; ++w)
      if (w != worst) et_after = std::max(et_after, ets[w]);
    if (et_after > et) break;  // the move would raise ET: stop (sec. 5.3's balance point)
    for (std::size_t t = g.begin; t < g.end; ++t) {
      --st.home_count[home(keyed[t].second)];
      s.assignment[keyed[t].second] = kGroupOwner;
    }
    st.nonzeros[worst] -= n;
    st.homes[worst] -= dropped;
    st.units[worst] -= 1;
    st.go_nonzeros += n;
    st.total_values -= dropped + 1;
    ++next[worst];
    ++s.offloaded_units;
    s.offloaded_nonzeros += n;
  }
  s.final = fgcp_costs(p, s.assignment);
  return s;
}

FgcpProblem parse_fgcp_problem(const Json& problem, const std::filesystem::path& base_dir) {
  json_reject_unknown_keys(
      problem, "",
      {"rows", "cols", "entries", "matrix_file", "row_cluster", "col_cluster", "seed", "worker_s_per_nonzero",
       "go_s_per_nonzero", "throughput_bps", "bytes_per_value", "comment"});
  FgcpProblem p;
  p.pattern = parse_sparse_pattern(problem, "", {base_dir, kMaxSparseMatrixDimension});
  p.worker_s_per_nonzero =
      json_number_array(problem, "worker_s_per_nonzero", "", -1, 0.0, kMaxSecondsPerNonZero);
  const auto k = p.worker_s_per_nonzero.size();
  if (k == 0) throw InputError("", "worker_s_per_nonzero", "expected at least 1 entry");
  if (k > std::size_t(kMaxWorkers))
    throw InputError("", "worker_s_per_nonzero", fmt::format("expected at most {} entries", kMaxWorkers));
  p.go_s_per_nonzero = json_number(problem, "go_s_per_nonzero", "", 0.0, kMaxSecondsPerNonZero);
  p.throughput_bps = json_number(problem, "throughput_bps", "", 0.0, kMaxThroughput_bps);
  if (!(p.throughput_bps > 0.0)) throw InputError("", "throughput_bps", "expected a number > 0, got 0");
  if (p.throughput_bps < kMinThroughput_bps)
    throw InputError("", "throughput_bps",
                     fmt::format("expected a rate in [{}, {}] bps, got {}", kMinThroughput_bps,
                                 kMaxThroughput_bps, p.throughput_bps));
  p.bytes_per_value = json_int(problem, "bytes_per_value", "", 1, 8);

  const bool has_rows = json_find(problem, "row_cluster", "") != nullptr;
  const bool has_cols = json_find(problem, "col_cluster", "") != nullptr;
  if (has_rows != has_cols)
    throw InputError("", has_rows ? "col_cluster" : "row_cluster",
                     "expected both row_cluster and col_cluster, or neither");
  if (has_rows) {
    if (json_find(problem, "seed", ""))
      throw InputError("", "seed", "only used when the clusters are not given");
    const auto max_label = std::int64_t(k) - 1;
    for (const auto& [key, size, out] : {std::tuple{"row_cluster", p.pattern.rows, &p.row_cluster},
                                         std::tuple{"col_cluster", p.pattern.cols, &p.col_cluster}})
      for (const auto v : json_int_array(problem, key, "", long(size), 0, max_label)) out->push_back(int(v));
    return p;
  }
  const auto k_max = std::min(p.pattern.rows, p.pattern.cols);
  if (std::int64_t(k) > k_max)
    throw InputError("", "worker_s_per_nonzero",
                     fmt::format("MSCC needs at most min(rows, cols) = {} workers, got {}", k_max, k));
  const auto seed = static_cast<std::uint64_t>(json_int_or(problem, "seed", "", 0, 0));
  auto clusters = mscc_cluster({p.pattern, std::int64_t(k), seed});
  p.row_cluster = std::move(clusters.row_cluster);
  p.col_cluster = std::move(clusters.col_cluster);
  return p;
}

Json fgcp_solution_to_json(const FgcpProblem& problem, const FgcpSolution& s) {
  return {{"offload_unit", s.unit == OffloadUnit::Column ? "column" : "row"},
          {"assignment", s.assignment},
          {"row_cluster", problem.row_cluster},
          {"col_cluster", problem.col_cluster},
          {"worker_nonzeros", s.final.worker_nonzeros},
          {"worker_input_values", s.final.worker_input_values},
          {"worker_output_values", s.final.worker_output_values},
          {"worker_et_s", s.final.worker_et_s},
          {"go_nonzeros", s.final.go_nonzeros},
          {"go_et_s", s.final.go_et_s},
          {"initial_et_s", s.initial.et_s},
          {"final_et_s", s.final.et_s},
          {"offloaded_units", s.offloaded_units},
          {"offloaded_nonzeros", s.offloaded_nonzeros},
          {"initial_transfer_bytes", s.initial.transfer_bytes},
          {"transfer_bytes", s.final.transfer_bytes}};
}

Json solve_fgcp_json(const Json& problem, const std::filesystem::path& base_dir) {
  const auto p = parse_fgcp_problem(problem, base_dir);
  return fgcp_solution_to_json(p, fgcp_partition(p));
}

}  // namespace coinfer::modnn
