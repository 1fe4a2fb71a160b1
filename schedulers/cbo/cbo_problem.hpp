#pragma once
/// The confidence-based offloading (CBO) problem of Tan & Cao [CBO §IV-B] with the timing rule
/// below, shared by `cbo-optimal` and `cbo-online`.
///
/// Each frame was already classified on the local NPU (accuracy `local_accuracy`, calibrated
/// confidence `confidence`); it may be offloaded to the server at one of R resolutions
/// (`sizes_bits[r]` bits, server accuracy `server_accuracy[r]`).
///
/// Timing rule (every solver and test follows it where the paper differs): offloaded frames are
/// uploaded one at a time, in the order the solver processes them, over one uplink:
///     start = max(arrival, end of the previous upload, uplink_free_at)
///     end   = start + size_bits / bandwidth_bps
/// and an offloaded frame is on time iff end + server_time + latency <= arrival + deadline
/// (compared exactly, without slack). Every offloaded frame must be on time.
/// Differences from the paper: sec. IV-C writes T(V_k) = max(T(V_{k-1}) + S/B, k*gamma), i.e. it
/// adds the upload before taking the max with the arrival, and checks the window [k*gamma,
/// k*gamma + T] on the upload end alone; Algorithm 1 (sec. IV-D) uses max(t, t_arr) + S/B and adds
/// T^o + L, which is the rule above.
#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"

namespace coinfer::cbo {

/// One frame that was processed locally.
struct Frame {
  double arrival_s = 0;            ///< arrival time (t_i^arr; i*gamma in the paper)
  double confidence = 0;           ///< calibrated confidence p_i in [0, 1]
  double local_accuracy = 0;       ///< A^npu_{p_i} in [0, 1]
  std::vector<double> sizes_bits;  ///< S(I_i, r) per resolution r
  /// This frame's own A^o per resolution (an offline oracle that knows each answer: 1 right, 0
  /// wrong); empty: the problem's server_accuracy. Not read from JSON.
  std::vector<double> server_accuracy;
};

/// A CBO problem instance (the notation of Table II in brackets).
struct Problem {
  std::vector<Frame> frames;
  std::vector<double> server_accuracy;  ///< A^o_r per resolution r, in [0, 1]
  double bandwidth_bps = 1;             ///< B, > 0
  double server_time_s = 0;             ///< T^o
  double latency_s = 0;                 ///< L
  double deadline_s = 0;                ///< T, the time constraint of every frame
  double uplink_free_at_s = 0;          ///< the uplink is busy until then (0 in the paper)

  std::size_t resolutions() const { return server_accuracy.size(); }
};

/// Decision for one frame: `kLocal` or a resolution index.
inline constexpr int kLocal = -1;

/// End of the upload of `frame` at resolution `r` when the uplink is free from `uplink_free_s`
/// (seconds). `uplink_free_s` already includes `uplink_free_at_s` (the solvers start from it).
inline double upload_end_s(const Problem& problem, const Frame& frame, std::size_t r, double uplink_free_s) {
  const double start_s = uplink_free_s > frame.arrival_s ? uplink_free_s : frame.arrival_s;
  return start_s + frame.sizes_bits[r] / problem.bandwidth_bps;
}

/// True iff a frame whose upload ends at `end_s` gets its result back by its deadline.
inline bool on_time(const Problem& problem, const Frame& frame, double end_s) {
  return end_s + problem.server_time_s + problem.latency_s <= frame.arrival_s + problem.deadline_s;
}

/// A^o_r for `frame`: its own value when it has one, else the problem's.
inline double offload_accuracy(const Problem& problem, const Frame& frame, std::size_t r) {
  return frame.server_accuracy.empty() ? problem.server_accuracy[r] : frame.server_accuracy[r];
}

/// Accuracy of `frame` under `decision` (`kLocal` or a resolution index).
inline double frame_accuracy(const Problem& problem, const Frame& frame, int decision) {
  return decision == kLocal ? frame.local_accuracy
                            : offload_accuracy(problem, frame, static_cast<std::size_t>(decision));
}

/// Parses and validates a problem. `extra_keys` are further top-level keys a solver accepts
/// (it reads them itself). Throws `InputError` naming the JSON path, e.g.
/// `frames[2].sizes: expected 3 entries, got 2` or `bandwidth: expected a positive number`.
///
///     auto problem = cbo::parse_problem(Json::parse(text));
Problem parse_problem(const Json& json, const std::vector<std::string>& extra_keys = {});

/// Throws `InputError("", "frames[i].arrival", ...)` unless arrivals are non-decreasing
/// (cbo-optimal processes frames in arrival order and reports decisions by input index).
void require_arrival_order(const Problem& problem);

/// Outcome of replaying per-frame decisions over the uplink.
struct Evaluation {
  bool feasible = true;              ///< every offloaded frame on time
  long first_late_frame = -1;        ///< input index of the first late frame in processing order, or -1
  double total_accuracy = 0;         ///< sum of frame accuracies, summed in processing order
  double gain = 0;                   ///< sum of server_accuracy[r] - local_accuracy over offloaded frames
  std::vector<double> upload_end_s;  ///< per input frame; NaN for local frames
};

/// Replays `decisions` (indexed by input frame; `kLocal` or a resolution index) with frames
/// processed in `order` (a permutation of input indices) under the timing rule above.
/// Throws `std::invalid_argument` when sizes or indices do not match the problem or `order` is
/// not a permutation.
///
///     auto e = cbo::evaluate(problem, {-1, 2, 0}, {0, 1, 2});   // e.feasible, e.total_accuracy
Evaluation evaluate(const Problem& problem, const std::vector<int>& decisions,
                    const std::vector<std::size_t>& order);
/// The same with frames processed in input order.
Evaluation evaluate(const Problem& problem, const std::vector<int>& decisions);

}  // namespace coinfer::cbo
