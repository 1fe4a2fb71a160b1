#pragma once
/// Per-user results of a population (simulate_population, SimulationResult::users): what
/// `users.csv` holds, and the `population` block of results.json.
///
///     users.csv: user,device,frames,completed,dropped,deadline_met,p50_ms,p95_ms,max_ms,
///                throughput_fps,energy_j,within_slo
///     "population": {"users", "users_within_slo", "p95_ms": {"min", "median", "max"},
///                    "jain_throughput"}
///
/// A user is within its SLO when at least 95% of the frames it released completed within their
/// deadline (its p95 latency, a dropped frame counted as late, is within the deadline; without a
/// deadline, when 95% completed). Its throughput is its completed frames over the time from its
/// first release to its last completion. Jain's index over the users' throughputs is
/// (sum x)^2 / (n sum x^2): 1 when every user is served alike, 1/n when one user gets everything.
/// Percentiles are nearest-rank over the user's completed frames (metrics.hpp), in ms.
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/replay/simulation_result.hpp"

namespace coinfer {

struct UserMetrics {
  std::string name;
  std::string device;
  std::size_t frames = 0;
  std::size_t completed = 0;
  std::size_t dropped = 0;
  std::size_t deadline_met = 0;
  double p50_ms = 0.0;  ///< NaN when no frame completed (so p95_ms and max_ms)
  double p95_ms = 0.0;
  double max_ms = 0.0;
  double throughput_fps = 0.0;
  double energy_j = 0.0;  ///< the user's device (compute and radio, idle included)
  bool within_slo = false;
};

/// One entry per SimulationResult::users, in order.
std::vector<UserMetrics> user_metrics(const SimulationResult& result);

/// Jain's fairness index of `x` (non-negative): (sum x)^2 / (n sum x^2); NaN when empty or all 0.
double jain_index(const std::vector<double>& x);

/// The `population` block of results.json.
Json population_metrics(const SimulationResult& result);

/// users.csv: the header, then one row per user.
std::string users_csv(const SimulationResult& result);

}  // namespace coinfer
