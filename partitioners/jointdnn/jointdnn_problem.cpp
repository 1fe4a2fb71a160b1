#include "partitioners/jointdnn/jointdnn_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::jointdnn {
namespace {

// Accepted ranges (README "Adding an algorithm", solver ranges). Why each bound:
// - Every time (s) and energy (J) in [0, kMaxValue = 1e9], with a non-zero value at least
//   kMinNonZero = 1e-12 (a picosecond or picojoule, below any profiler or power meter). A schedule
//   sums at most 3 * 10^6 of them (<= 3e15), and LARAC's multiplier lambda = dc / dd then stays
//   below ~1e43, so lambda * d never overflows (with values up to 1e300, or as small as 1e-300,
//   it did).
// - Maxima in [0, kMaxLimit = 1e18]: above any reachable total, so a larger one means no limit.
// - layers in [1, 10^6] (bounded anyway by the triangles the file must hold).
constexpr double kMaxValue = 1e9;
constexpr double kMinNonZero = 1e-12;
constexpr double kMaxLimit = 1e18;

/// Rejects a non-zero value below kMinNonZero at `path`.
double checked_value(double v, const std::string& path) {
  if (v != 0.0 && v < kMinNonZero)
    throw InputError("", path,
                     fmt::format("expected 0 or a number in [{}, {}], got {}", kMinNonZero, kMaxValue, v));
  return v;
}

std::vector<double> checked_values(std::vector<double> values, const std::string& path) {
  for (std::size_t i = 0; i < values.size(); ++i) checked_value(values[i], index_path(path, i));
  return values;
}

/// Array of `size` times or energies in range.
std::vector<double> value_array(const Json& problem, const std::string& key, long size) {
  return checked_values(json_number_array(problem, key, "", size, 0.0, kMaxValue), key);
}

const std::vector<std::string> kKeys = {
    "layers",        "mobile_time",   "cloud_time",           "upload_time",
    "download_time", "mobile_energy", "upload_energy",        "download_energy",
    "skips",         "detached",      "weight_download_time", "weight_download_energy",
    "objective",     "max_latency",   "max_energy",           "max_cloud_time"};

/// A grouped-cost matrix: row i (first layer i+1) must hold layers - i entries, all >= 0.
std::vector<std::vector<double>> parse_triangle(const Json& problem, const std::string& key, int layers) {
  auto rows = json_number_matrix(problem, key, "", 0.0, kMaxValue);
  if (rows.size() != static_cast<std::size_t>(layers))
    throw InputError("", key,
                     fmt::format("expected {} rows (one per first layer), got {}", layers, rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::size_t expected = static_cast<std::size_t>(layers) - i;
    if (rows[i].size() != expected)
      throw InputError("", index_path(key, i),
                       fmt::format("expected {} entries, got {}", expected, rows[i].size()));
    checked_values(rows[i], index_path(key, i));
  }
  return rows;
}

std::vector<double> parse_optional_array(const Json& problem, const std::string& key, long size) {
  if (!json_find(problem, key, "")) return {};
  return value_array(problem, key, size);
}

std::vector<Skip> parse_skips(const Json& problem, int layers) {
  std::vector<Skip> skips;
  const Json* node = json_find(problem, "skips", "");
  if (!node) return skips;
  if (!node->is_array()) throw InputError("", "skips", "expected an array of [a, b] pairs");
  std::set<std::pair<int, int>> seen;
  for (std::size_t s = 0; s < node->size(); ++s) {
    const auto path = index_path("skips", s);
    const Json& pair = (*node)[s];
    if (!pair.is_array() || pair.size() != 2) throw InputError("", path, "expected a pair [a, b]");
    const auto a = static_cast<int>(json_as_int(pair[0], index_path(path, 0), 0, layers - 1));
    const auto b = static_cast<int>(json_as_int(pair[1], index_path(path, 1), 0, layers));
    if (b < a + 2)
      throw InputError("", path,
                       fmt::format("a skip [a, b] needs a + 2 <= b <= {} (layer b consumes layer a's output; "
                                   "b = a + 1 is the chain itself), got [{}, {}]",
                                   layers, a, b));
    if (!seen.insert({a, b}).second) throw InputError("", path, fmt::format("duplicate skip [{}, {}]", a, b));
    skips.push_back({a, b});
  }
  return skips;
}

std::vector<int> parse_detached(const Json& problem, int layers) {
  std::vector<int> detached;
  const Json* node = json_find(problem, "detached", "");
  if (!node) return detached;
  if (!node->is_array()) throw InputError("", "detached", "expected an array of layers (1..N), increasing");
  for (std::size_t i = 0; i < node->size(); ++i) {
    const auto path = index_path("detached", i);
    const auto k = static_cast<int>(json_as_int((*node)[i], path, 1, layers));
    if (!detached.empty() && k <= detached.back())
      throw InputError(
          "", path, fmt::format("expected layers in increasing order, got {} after {}", k, detached.back()));
    detached.push_back(k);
  }
  return detached;
}

void parse_energy(const Json& problem, Problem& p) {
  const bool any = json_find(problem, "mobile_energy", "") || json_find(problem, "upload_energy", "") ||
                   json_find(problem, "download_energy", "");
  const long n1 = p.layers + 1;
  if (any) {
    for (const char* key : {"mobile_energy", "upload_energy", "download_energy"})
      if (!json_find(problem, key, ""))
        throw InputError("", key,
                         "missing key (mobile_energy, upload_energy and download_energy come together)");
    p.mobile_energy_j = parse_triangle(problem, "mobile_energy", p.layers);
    p.upload_energy_j = value_array(problem, "upload_energy", n1);
    p.download_energy_j = value_array(problem, "download_energy", n1);
  }
  p.weight_download_energy_j = parse_optional_array(problem, "weight_download_energy", p.layers);
  if (!p.weight_download_energy_j.empty() && !any)
    throw InputError("", "weight_download_energy", "needs mobile_energy, upload_energy and download_energy");
  if (p.weight_download_energy_j.empty()) p.weight_download_energy_j.assign(p.layers, 0.0);
}

void parse_goal(const Json& problem, Problem& p) {
  const auto objective = json_enum(problem, "objective", "", {"latency", "energy"});
  p.objective = objective == "energy" ? Objective::energy : Objective::latency;
  if (p.objective == Objective::energy && !p.has_energy())
    throw InputError("", "objective", "'energy' needs mobile_energy, upload_energy and download_energy");
  p.max_latency_s = json_optional_number(problem, "max_latency", "", 0.0, kMaxLimit);
  p.max_energy_j = json_optional_number(problem, "max_energy", "", 0.0, kMaxLimit);
  p.max_cloud_time_s = json_optional_number(problem, "max_cloud_time", "", 0.0, kMaxLimit);
  if (p.max_energy_j && !p.has_energy())
    throw InputError("", "max_energy", "needs mobile_energy, upload_energy and download_energy");
}

void check_groups(const Problem& problem, const std::vector<Group>& groups) {
  int next = 1;
  for (const auto& g : groups) {
    if (g.first != next || g.last < g.first || g.last > problem.layers)
      throw Error(fmt::format("jointdnn: groups do not cover layers 1..{} consecutively", problem.layers));
    next = g.last + 1;
  }
  if (next != problem.layers + 1)
    throw Error(fmt::format("jointdnn: groups do not cover layers 1..{} consecutively", problem.layers));
}

}  // namespace

double Problem::group_time_s(int first, int last, Side side) const {
  const auto& m = side == Side::mobile ? mobile_time_s : cloud_time_s;
  return m[first - 1][last - first];
}

double Problem::group_energy_j(int first, int last, Side side) const {
  if (side == Side::cloud || !has_energy()) return 0.0;
  return mobile_energy_j[first - 1][last - first];
}

bool Problem::reads_previous(int k) const { return !std::binary_search(detached.begin(), detached.end(), k); }

Problem parse_problem(const Json& problem) {
  json_reject_unknown_keys(problem, "", kKeys);
  Problem p;
  p.layers = static_cast<int>(json_int(problem, "layers", "", 1, 1'000'000));
  const long n1 = p.layers + 1;
  p.mobile_time_s = parse_triangle(problem, "mobile_time", p.layers);
  p.cloud_time_s = parse_triangle(problem, "cloud_time", p.layers);
  p.upload_time_s = value_array(problem, "upload_time", n1);
  p.download_time_s = value_array(problem, "download_time", n1);
  p.weight_download_time_s = parse_optional_array(problem, "weight_download_time", p.layers);
  if (p.weight_download_time_s.empty()) p.weight_download_time_s.assign(p.layers, 0.0);
  parse_energy(problem, p);
  p.skips = parse_skips(problem, p.layers);
  p.detached = parse_detached(problem, p.layers);
  parse_goal(problem, p);
  return p;
}

Cost evaluate_schedule(const Problem& problem, const std::vector<Group>& groups) {
  check_groups(problem, groups);
  const int n = problem.layers;
  // side[j] for j = 0..N+1: layer 0 is the input (mobile), N+1 the final consumer (mobile).
  std::vector<Side> side(n + 2, Side::mobile);
  Cost cost;
  for (const auto& g : groups) {
    cost.latency_s += problem.group_time_s(g.first, g.last, g.on);
    cost.energy_j += problem.group_energy_j(g.first, g.last, g.on);
    if (g.on == Side::cloud) cost.cloud_time_s += problem.group_time_s(g.first, g.last, g.on);
    for (int k = g.first; k <= g.last; ++k) {
      side[k] = g.on;
      if (g.on == Side::cloud) {
        cost.latency_s += problem.weight_download_time_s[k - 1];
        cost.energy_j += problem.weight_download_energy_j[k - 1];
      }
    }
  }
  // needs_other[j]: some consumer of layer j's output runs on the other side than layer j.
  std::vector<bool> needs_other(n + 1, false);
  for (int j = 0; j <= n; ++j) needs_other[j] = problem.reads_previous(j + 1) && side[j + 1] != side[j];
  for (const auto& s : problem.skips)
    if (side[s.to_layer] != side[s.from_layer]) needs_other[s.from_layer] = true;
  for (int j = 0; j <= n; ++j) {
    if (!needs_other[j]) continue;  // each crossing is paid once, however many consumers it serves
    const bool up = side[j] == Side::mobile;
    cost.latency_s += up ? problem.upload_time_s[j] : problem.download_time_s[j];
    if (problem.has_energy()) cost.energy_j += up ? problem.upload_energy_j[j] : problem.download_energy_j[j];
  }
  return cost;
}

double objective_value(const Problem& problem, const Cost& cost) {
  return problem.objective == Objective::energy ? cost.energy_j : cost.latency_s;
}

bool within_limit(double value, double limit) {
  return value <= limit + 1e-9 * std::max(1.0, std::fabs(limit));
}

bool within_limits(const Problem& problem, const Cost& cost) {
  if (problem.max_latency_s && !within_limit(cost.latency_s, *problem.max_latency_s)) return false;
  if (problem.max_energy_j && !within_limit(cost.energy_j, *problem.max_energy_j)) return false;
  if (problem.max_cloud_time_s && !within_limit(cost.cloud_time_s, *problem.max_cloud_time_s)) return false;
  return true;
}

Solution make_solution(const Problem& problem, std::vector<Group> groups) {
  Solution s;
  s.cost = evaluate_schedule(problem, groups);
  s.feasible = within_limits(problem, s.cost);
  s.groups = std::move(groups);
  return s;
}

const char* side_name(Side side) { return side == Side::mobile ? "mobile" : "cloud"; }

Json solution_to_json(const Problem& problem, const Solution& solution) {
  Json out = {{"feasible", solution.feasible}, {"groups", Json::array()}};
  if (!solution.feasible) {
    out["latency"] = nullptr;
    out["energy"] = nullptr;
    out["cloud_time"] = nullptr;
    return out;
  }
  for (const auto& g : solution.groups)
    out["groups"].push_back({{"first", g.first}, {"last", g.last}, {"on", side_name(g.on)}});
  out["latency"] = solution.cost.latency_s;
  out["energy"] = problem.has_energy() ? Json(solution.cost.energy_j) : Json(nullptr);
  out["cloud_time"] = solution.cost.cloud_time_s;
  return out;
}

}  // namespace coinfer::jointdnn
