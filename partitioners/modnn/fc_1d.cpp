#include "partitioners/modnn/fc_1d.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "partitioners/modnn/solver_limits.hpp"
#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

std::vector<double> parse_workers(const Json& problem) {
  const bool has_workers = json_find(problem, "workers", "") != nullptr;
  const bool has_caps = json_find(problem, "capabilities", "") != nullptr;
  if (has_workers == has_caps)
    throw InputError("", "workers", "expected exactly one of 'workers' or 'capabilities'");
  if (has_workers)
    return std::vector<double>(static_cast<std::size_t>(json_int(problem, "workers", "", 1, kMaxWorkers)),
                               1.0);
  auto caps = json_number_array(problem, "capabilities", "");
  if (caps.empty()) throw InputError("", "capabilities", "expected at least 1 entry");
  if (caps.size() > std::size_t(kMaxWorkers))
    throw InputError("", "capabilities", fmt::format("expected at most {} entries", kMaxWorkers));
  for (std::size_t i = 0; i < caps.size(); ++i)
    if (!(caps[i] > 0.0) || !(caps[i] < 1e300))
      throw InputError("", index_path("capabilities", i),
                       fmt::format("expected a finite number > 0, got {}", caps[i]));
  return caps;
}

/// Index of the part holding `x` (ranges are consecutive and cover everything).
std::size_t part_of(const std::vector<IndexRange>& ranges, std::int64_t x) {
  const auto it = std::upper_bound(ranges.begin(), ranges.end(), x,
                                   [](std::int64_t v, const IndexRange& r) { return v < r.end; });
  return static_cast<std::size_t>(it - ranges.begin());
}

}  // namespace

Fc1dProblem parse_fc_1d_problem(const Json& problem) {
  json_reject_unknown_keys(
      problem, "", {"rows", "cols", "workers", "capabilities", "bytes_per_value", "entries", "comment"});
  Fc1dProblem p;
  p.sparse = json_find(problem, "entries", "") != nullptr;
  // A sparse matrix's plan keeps arrays per row and column (solver_limits.hpp); a dense one only
  // needs its ranges: up to 2^31 - 1.
  if (p.sparse) {
    json_int(problem, "rows", "", 1, kMaxSparseMatrixDimension);
    json_int(problem, "cols", "", 1, kMaxSparseMatrixDimension);
    p.pattern = parse_sparse_pattern(problem);
  } else {
    p.pattern.rows = json_int(problem, "rows", "", 1, 2147483647);
    p.pattern.cols = json_int(problem, "cols", "", 1, 2147483647);
  }
  p.capabilities = parse_workers(problem);
  p.bytes_per_value = json_int(problem, "bytes_per_value", "", 1, 8);
  return p;
}

Fc1dPlan fc_1d_partition(const Fc1dProblem& problem) {
  const auto& a = problem.pattern;
  const std::size_t k = problem.capabilities.size();
  if (problem.sparse) check_pattern_bounds(a);
  check_capabilities(problem.capabilities);
  Fc1dPlan plan;
  plan.axis = a.cols > a.rows ? MatrixAxis::Cols : MatrixAxis::Rows;
  const bool by_rows = plan.axis == MatrixAxis::Rows;
  plan.ranges = proportional_split(by_rows ? a.rows : a.cols, problem.capabilities);
  plan.input_values.assign(k, 0);
  plan.output_values.assign(k, 0);
  plan.nonzeros.assign(k, 0);
  if (!problem.sparse) {
    for (std::size_t w = 0; w < k; ++w) {
      const auto part = plan.ranges[w].size();
      const auto other = part > 0 ? (by_rows ? a.cols : a.rows) : 0;
      plan.input_values[w] = by_rows ? part : other;
      plan.output_values[w] = by_rows ? other : part;
      plan.nonzeros[w] = part * (by_rows ? a.cols : a.rows);
    }
  } else {
    // Distinct rows and columns touched by each worker's non-zeros (last-seen stamps per worker).
    std::vector<std::int64_t> row_seen(static_cast<std::size_t>(a.rows), -1),
        col_seen(static_cast<std::size_t>(a.cols), -1);
    std::vector<std::vector<NonZero>> parts(k);
    for (const auto& e : a.entries) parts[part_of(plan.ranges, by_rows ? e.row : e.col)].push_back(e);
    for (std::size_t w = 0; w < k; ++w)
      for (const auto& e : parts[w]) {
        ++plan.nonzeros[w];
        if (row_seen[e.row] != std::int64_t(w)) row_seen[e.row] = std::int64_t(w), ++plan.input_values[w];
        if (col_seen[e.col] != std::int64_t(w)) col_seen[e.col] = std::int64_t(w), ++plan.output_values[w];
      }
  }
  for (std::size_t w = 0; w < k; ++w)
    plan.transfer_bytes += (plan.input_values[w] + plan.output_values[w]) * problem.bytes_per_value;
  return plan;
}

Json fc_1d_plan_to_json(const Fc1dPlan& plan) {
  return {{"axis", plan.axis == MatrixAxis::Rows ? "rows" : "cols"},
          {"ranges", ranges_to_json(plan.ranges)},
          {"input_values", plan.input_values},
          {"output_values", plan.output_values},
          {"nonzeros", plan.nonzeros},
          {"transfer_bytes", plan.transfer_bytes}};
}

Json solve_fc_1d_json(const Json& problem) {
  return fc_1d_plan_to_json(fc_1d_partition(parse_fc_1d_problem(problem)));
}

}  // namespace coinfer::modnn
