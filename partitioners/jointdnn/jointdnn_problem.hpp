#pragma once
/// The mobile/cloud layer-scheduling problem of JointDNN (Eshratifar et al., [JointDNN §2.3-2.4])
/// as plain data, its JSON form, and the exact cost of a given schedule.
///
/// Semantics: a schedule splits layers 1..N into consecutive groups, each on the
/// mobile or the cloud (two neighbouring groups may sit on the same side). The model input (layer 0's
/// "output") starts on the mobile and the output of layer N must end on the mobile. The output of
/// layer j must reach every side where one of its consumers runs (layer j+1 unless it is `detached`,
/// every b with [j, b] in skips, the mobile for j = N); each crossing is paid once (upload_time[j] or
/// download_time[j]). A `detached` layer k does not read layer k-1 (a branch of a DAG in topological
/// order: an Inception branch, a ResNet projection shortcut); layer k-1's consumers are then skips.
///   latency    = group times + crossings + weight_download_time[k-1] for each cloud layer k
///   energy     = mobile group energies + crossing energies + weight_download_energy[k-1] per cloud layer
///   cloud time = sum of cloud group times
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::jointdnn {

enum class Side : std::uint8_t { mobile = 0, cloud = 1 };
enum class Objective : std::uint8_t { latency, energy };

/// A residual edge: the output of layer `from_layer` (0 = model input) also feeds layer `to_layer`.
struct Skip {
  int from_layer = 0;
  int to_layer = 0;
};

/// One group of consecutive layers `first..last` (1-based, inclusive) run together on side `on`.
struct Group {
  int first = 1;
  int last = 1;
  Side on = Side::mobile;
  bool operator==(const Group&) const = default;
};

/// The three additive resources of a schedule; `energy_j` is 0 when the problem has no energy data.
struct Cost {
  double latency_s = 0.0;
  double energy_j = 0.0;
  double cloud_time_s = 0.0;
};

struct Problem {
  int layers = 0;
  /// [i][k]: run layers i+1 .. i+1+k as one group (row i has layers - i entries).
  std::vector<std::vector<double>> mobile_time_s;
  std::vector<std::vector<double>> cloud_time_s;
  std::vector<std::vector<double>> mobile_energy_j;  ///< empty when the problem has no energy data
  /// [j]: move the output of layer j (0 = model input) to the cloud / to the mobile; layers + 1 entries.
  std::vector<double> upload_time_s;
  std::vector<double> download_time_s;
  std::vector<double> upload_energy_j;    ///< empty without energy data
  std::vector<double> download_energy_j;  ///< empty without energy data
  /// [k-1]: download the weights of layer k when it runs on the cloud; zeros when absent.
  std::vector<double> weight_download_time_s;
  std::vector<double> weight_download_energy_j;
  std::vector<Skip> skips;
  /// Layers k (1..N, increasing) that do not read layer k-1; JSON key `detached` (optional).
  std::vector<int> detached;
  Objective objective = Objective::latency;
  std::optional<double> max_latency_s;
  std::optional<double> max_energy_j;
  std::optional<double> max_cloud_time_s;

  bool has_energy() const { return !mobile_energy_j.empty(); }
  /// False when layer k (1..N) is detached; layer N+1 (the mobile receiving the result) reads N.
  bool reads_previous(int k) const;
  bool has_limits() const { return max_latency_s || max_energy_j || max_cloud_time_s; }
  /// Time of layers first..last (1-based) as one group on `side`.
  double group_time_s(int first, int last, Side side) const;
  /// Mobile energy of layers first..last as one group on `side` (0 on the cloud or without energy data).
  double group_energy_j(int first, int last, Side side) const;
};

/// A schedule with its cost; `feasible == false` means no schedule meets the maxima (groups empty).
struct Solution {
  bool feasible = false;
  std::vector<Group> groups;
  Cost cost;
};

/// Parses and validates a problem; throws `InputError` naming the JSON path, e.g.
/// `mobile_time[3]: expected 5 entries, got 4`. Ranges: times and energies 0 or in [1e-12, 1e9],
/// maxima in [0, 1e18], layers in [1, 10^6]. Example: `auto p = parse_problem(Json::parse(text));`
Problem parse_problem(const Json& problem);

/// The exact cost of `groups` under the semantics above. Throws `Error` when the groups do not
/// cover layers 1..N consecutively. Example: `evaluate_schedule(p, {{1, 3, Side::mobile}})`.
Cost evaluate_schedule(const Problem& problem, const std::vector<Group>& groups);

/// The minimised quantity: `cost.latency_s` or `cost.energy_j`.
double objective_value(const Problem& problem, const Cost& cost);

/// True when `value` <= `limit` up to a relative 1e-9 (all solvers and tests use this one test).
bool within_limit(double value, double limit);
/// True when `cost` meets every maximum the problem sets.
bool within_limits(const Problem& problem, const Cost& cost);

/// Evaluates `groups` and fills a solution (feasible iff the maxima hold). The grouping is part
/// of the schedule: neighbouring groups on the same side are kept apart as chosen.
Solution make_solution(const Problem& problem, std::vector<Group> groups);

/// `{"feasible", "groups": [{"first", "last", "on"}], "latency", "energy" (null without energy
/// data), "cloud_time"}`; an infeasible solution has `groups: []` and null numbers.
Json solution_to_json(const Problem& problem, const Solution& solution);

/// "mobile" or "cloud".
const char* side_name(Side side);

}  // namespace coinfer::jointdnn
