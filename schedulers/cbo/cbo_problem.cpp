#include "schedulers/cbo/cbo_problem.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::cbo {
namespace {

// Accepted ranges (README "Adding an algorithm", solver ranges). Why each bound:
// - Times (arrival, server_time, latency, deadline, uplink_free_at) in [0, 1e9] s, the horizon of
//   any run (about 32 years; a double resolves it to 0.2 us).
// - bandwidth in [1, 1e12] bps, as a platform's link rates: 1 Tb/s is beyond any uplink.
// - sizes in [0, 1e15] bits (125 TB, beyond any frame): an upload then takes at most 1e15 s and
//   every finish time stays finite.
constexpr double kMaxTime_s = 1e9;
constexpr double kMinBandwidth_bps = 1.0, kMaxBandwidth_bps = 1e12;
constexpr double kMaxSize_bits = 1e15;

Frame parse_frame(const Json& json, const std::string& path, std::size_t resolutions) {
  json_reject_unknown_keys(json, path, {"arrival", "confidence", "local_accuracy", "sizes"});
  Frame frame;
  frame.arrival_s = json_number(json, "arrival", path, 0.0, kMaxTime_s);
  frame.confidence = json_number(json, "confidence", path, 0.0, 1.0);
  frame.local_accuracy = json_number(json, "local_accuracy", path, 0.0, 1.0);
  frame.sizes_bits =
      json_number_array(json, "sizes", path, static_cast<long>(resolutions), 0.0, kMaxSize_bits);
  return frame;
}

double bandwidth_bps(const Json& json) {
  const double x = json_number(json, "bandwidth", "", 0.0, kMaxBandwidth_bps);
  if (!(x > 0)) throw InputError("", "bandwidth", fmt::format("expected a positive number, got {}", x));
  if (x < kMinBandwidth_bps)
    throw InputError(
        "", "bandwidth",
        fmt::format("expected a rate in [{}, {}] bps, got {}", kMinBandwidth_bps, kMaxBandwidth_bps, x));
  return x;
}

}  // namespace

Problem parse_problem(const Json& json, const std::vector<std::string>& extra_keys) {
  std::vector<std::string> allowed{"frames",  "server_accuracy", "bandwidth",     "server_time",
                                   "latency", "deadline",        "uplink_free_at"};
  allowed.insert(allowed.end(), extra_keys.begin(), extra_keys.end());
  json_reject_unknown_keys(json, "", allowed);

  Problem problem;
  problem.server_accuracy = json_number_array(json, "server_accuracy", "", -1, 0.0, 1.0);
  if (problem.server_accuracy.empty())
    throw InputError("", "server_accuracy", "expected at least one resolution");
  problem.bandwidth_bps = bandwidth_bps(json);
  problem.server_time_s = json_number(json, "server_time", "", 0.0, kMaxTime_s);
  problem.latency_s = json_number(json, "latency", "", 0.0, kMaxTime_s);
  problem.deadline_s = json_number(json, "deadline", "", 0.0, kMaxTime_s);
  problem.uplink_free_at_s = json_number_or(json, "uplink_free_at", "", 0.0, 0.0, kMaxTime_s);

  const Json& frames = json_at(json, "frames", "");
  if (!frames.is_array()) throw InputError("", "frames", "expected an array of frames");
  if (frames.empty()) throw InputError("", "frames", "expected at least one frame");
  problem.frames.reserve(frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i)
    problem.frames.push_back(parse_frame(frames[i], index_path("frames", i), problem.resolutions()));
  return problem;
}

void require_arrival_order(const Problem& problem) {
  for (std::size_t i = 1; i < problem.frames.size(); ++i) {
    if (problem.frames[i].arrival_s < problem.frames[i - 1].arrival_s)
      throw InputError("", join_path(index_path("frames", i), "arrival"),
                       fmt::format("expected arrivals in non-decreasing order, got {} after {}",
                                   problem.frames[i].arrival_s, problem.frames[i - 1].arrival_s));
  }
}

Evaluation evaluate(const Problem& problem, const std::vector<int>& decisions,
                    const std::vector<std::size_t>& order) {
  const std::size_t n = problem.frames.size();
  if (decisions.size() != n || order.size() != n)
    throw std::invalid_argument("cbo::evaluate: decisions and order need one entry per frame");
  Evaluation out;
  out.upload_end_s.assign(n, std::numeric_limits<double>::quiet_NaN());
  double uplink_free_s = problem.uplink_free_at_s;
  std::vector<bool> seen(n, false);
  for (const std::size_t i : order) {
    if (i >= n || seen[i]) throw std::invalid_argument("cbo::evaluate: order is not a permutation");
    seen[i] = true;
    const Frame& frame = problem.frames[i];
    const int d = decisions[i];
    if (d < kLocal || d >= static_cast<int>(problem.resolutions()))
      throw std::invalid_argument("cbo::evaluate: decision out of range");
    out.total_accuracy += frame_accuracy(problem, frame, d);
    if (d == kLocal) continue;
    out.gain += offload_accuracy(problem, frame, static_cast<std::size_t>(d)) - frame.local_accuracy;
    uplink_free_s = upload_end_s(problem, frame, static_cast<std::size_t>(d), uplink_free_s);
    out.upload_end_s[i] = uplink_free_s;
    if (!on_time(problem, frame, uplink_free_s) && out.feasible) {
      out.feasible = false;
      out.first_late_frame = static_cast<long>(i);
    }
  }
  return out;
}

Evaluation evaluate(const Problem& problem, const std::vector<int>& decisions) {
  std::vector<std::size_t> order(problem.frames.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  return evaluate(problem, decisions, order);
}

}  // namespace coinfer::cbo
