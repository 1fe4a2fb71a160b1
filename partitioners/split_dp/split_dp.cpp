#include "partitioners/split_dp/split_dp.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

// Accepted ranges (README "Adding an algorithm", solver ranges). Why each bound:
// - ops and speeds in [1e-30, 1e30]: they share an arbitrary unit of work, and any real layer or
//   device fits that span in any sane unit. A stage sums at most kMaxLayers ops (<= 4e33), so every
//   C_i / ops(stage) is a finite number >= 2.5e-64 > 0; with 1e308 ops the sum overflowed or the
//   throughput underflowed to 0, and a "feasible" split of throughput 0 came back.
// - at most kMaxLayers = 4096 layers (the deepest published DNNs have about 1000) and kMaxDevices
//   = 256 devices: the DP holds (n+1)(m+1) entries and takes O(m^2 n) steps (a few seconds here).
constexpr double kMinValue = 1e-30, kMaxValue = 1e30;
constexpr long kMaxLayers = 4096, kMaxDevices = 256;

/// Non-empty array of at most `max_size` numbers in [kMinValue, kMaxValue] at `problem[key]`
/// (or exactly 0 too, when `allow_zero`).
std::vector<double> checked_array(const Json& problem, const char* key, long max_size, bool allow_zero) {
  auto values = json_number_array(problem, key, "", -1, allow_zero ? -1e308 : kMinValue,
                                  allow_zero ? 1e308 : kMaxValue);
  if (values.empty()) throw InputError("", key, "expected at least 1 entry");
  if (static_cast<long>(values.size()) > max_size)
    throw InputError("", key, fmt::format("expected at most {} entries, got {}", max_size, values.size()));
  for (std::size_t j = 0; j < values.size(); ++j)
    if (values[j] != 0.0 && !(values[j] >= kMinValue && values[j] <= kMaxValue))
      throw InputError(
          "", fmt::format("{}[{}]", key, j),
          fmt::format("expected 0 or a number in [{}, {}], got {}", kMinValue, kMaxValue, values[j]));
  return values;
}

/// Throughput entry of the JSON form: null for a stage without ops (unbounded).
Json throughput_json(double fps) { return std::isinf(fps) ? Json(nullptr) : Json(fps); }

/// Ops of layers first..last (1-based, inclusive), summed left to right.
double stage_ops(const std::vector<double>& ops, std::size_t first, std::size_t last) {
  double sum = 0.0;
  for (std::size_t j = first; j <= last; ++j) sum += ops[j - 1];
  return sum;
}

/// The DP tables of eq. 2, indexed [q][a]: `best` is split(m - a, q), the best throughput of layers
/// a+1..m on the last q devices; `cut` is the s attaining it (the last layer of device n-q+1).
struct SplitTables {
  std::size_t m = 0;
  std::vector<double> best;
  std::vector<std::size_t> cut;
  double& best_at(std::size_t q, std::size_t a) { return best[q * (m + 1) + a]; }
  std::size_t& cut_at(std::size_t q, std::size_t a) { return cut[q * (m + 1) + a]; }
};

SplitTables fill_tables(const std::vector<double>& ops, const std::vector<double>& speeds) {
  const std::size_t m = ops.size(), n = speeds.size();
  SplitTables t;
  t.m = m;
  t.best.assign((n + 1) * (m + 1), 0.0);
  t.cut.assign((n + 1) * (m + 1), 0);
  // Initial condition of eq. 2: split(i, 1) = C_n / sum of the last i layers' ops.
  double suffix = 0.0;
  for (std::size_t a = m; a-- > 0;) {
    suffix += ops[a];
    t.best_at(1, a) = speeds[n - 1] / suffix;
    t.cut_at(1, a) = m;
  }
  // eq. 2 of Hu & Krishnamachari: split(p, q) = max_{m-p < s < m} min{ C_{n-q+1} / ops(m-p+1..s),
  // split(m-s, q-1) }. With a = m - p layers already placed, device n-q+1 takes layers a+1..s; the
  // remaining q-1 devices need at least q-1 layers, so s <= m-q+1. Keeping the running stage sum
  // makes each step O(1) (no prefix-sum cancellation) and the whole table O(m^2 n).
  for (std::size_t q = 2; q <= n; ++q) {
    const double speed = speeds[n - q];
    for (std::size_t a = 0; a + q <= m; ++a) {
      double stage = 0.0, best = -1.0;
      std::size_t best_s = a + 1;
      for (std::size_t s = a + 1; s + q - 1 <= m; ++s) {
        stage += ops[s - 1];
        const double value = std::min(speed / stage, t.best_at(q - 1, s));
        if (value > best) {
          best = value;
          best_s = s;
        }
      }
      t.best_at(q, a) = best;
      t.cut_at(q, a) = best_s;
    }
  }
  return t;
}

}  // namespace

SplitDpProblem parse_split_dp_problem(const Json& problem) {
  json_reject_unknown_keys(problem, "", {"layer_ops", "device_speeds", "comment"});
  SplitDpProblem p;
  p.layer_ops = checked_array(problem, "layer_ops", kMaxLayers, true);
  p.device_speeds = checked_array(problem, "device_speeds", kMaxDevices, false);
  // A layer with no MACs (pool, activation, add) has 0 ops; a stage of such layers only is
  // unbounded (infinite throughput), so some layer must carry work for the bottleneck to be finite.
  if (std::none_of(p.layer_ops.begin(), p.layer_ops.end(), [](double v) { return v > 0.0; }))
    throw InputError("", "layer_ops", "expected at least one entry > 0 (every layer has 0 ops)");
  return p;
}

std::vector<double> split_stage_throughputs(const SplitDpProblem& problem,
                                            const std::vector<std::size_t>& splits) {
  const std::size_t m = problem.layer_ops.size(), n = problem.device_speeds.size();
  assert(splits.size() + 1 == n);
  std::vector<double> out(n);
  for (std::size_t d = 0; d < n; ++d) {
    const std::size_t first = d == 0 ? 1 : splits[d - 1] + 1;
    const std::size_t last = d + 1 == n ? m : splits[d];
    assert(first <= last && last <= m);
    out[d] = problem.device_speeds[d] / stage_ops(problem.layer_ops, first, last);
  }
  return out;
}

SplitDpSolution solve_split_dp(const SplitDpProblem& problem) {
  const std::size_t m = problem.layer_ops.size(), n = problem.device_speeds.size();
  SplitDpSolution sol;
  if (n == 0 || n > m) return sol;  // some device would run no layer: infeasible
  auto tables = fill_tables(problem.layer_ops, problem.device_speeds);
  // Walk the argmax choices from split(m, n): device n-q+1 ends at cut(q, a).
  std::size_t a = 0;
  for (std::size_t q = n; q >= 2; --q) {
    a = tables.cut_at(q, a);
    sol.splits.push_back(a);
  }
  sol.feasible = true;
  sol.stage_throughputs = split_stage_throughputs(problem, sol.splits);
  sol.throughput_fps = *std::min_element(sol.stage_throughputs.begin(), sol.stage_throughputs.end());
  return sol;
}

Json split_dp_solution_to_json(const SplitDpSolution& solution) {
  Json out = Json::object();
  out["feasible"] = solution.feasible;
  out["splits"] = solution.splits;
  out["throughput"] = solution.feasible ? Json(solution.throughput_fps) : Json(nullptr);
  Json stages = Json::array();
  for (double fps : solution.stage_throughputs) stages.push_back(throughput_json(fps));
  out["stage_throughputs"] = std::move(stages);
  return out;
}

Json solve_split_dp_json(const Json& problem) {
  return split_dp_solution_to_json(solve_split_dp(parse_split_dp_problem(problem)));
}

}  // namespace coinfer
