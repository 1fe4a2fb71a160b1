#include "schedulers/cbo/cbo_optimal.hpp"

#include <numeric>

#include "schedulers/cbo/label_dp.hpp"

namespace coinfer::cbo {

OptimalSolution solve_optimal(const Problem& problem) {
  require_arrival_order(problem);
  std::vector<std::size_t> order(problem.frames.size());
  std::iota(order.begin(), order.end(), std::size_t{0});  // levels 1..n of the solution graph

  detail::LabelDpOptions options;
  options.value = detail::LabelValue::kAccuracy;
  const auto dp = detail::run_label_dp(problem, order, options);

  OptimalSolution out;
  out.decisions = dp.decisions;
  out.accuracy = dp.best_value / static_cast<double>(problem.frames.size());  // (1/n) sum, eq. (1)
  out.peak_front = dp.peak_front;
  return out;
}

Json to_json(const OptimalSolution& solution) {
  return Json{{"decisions", solution.decisions}, {"accuracy", solution.accuracy}};
}

Json solve_optimal_json(const Json& problem) { return to_json(solve_optimal(parse_problem(problem))); }

}  // namespace coinfer::cbo
