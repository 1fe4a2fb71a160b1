#pragma once
/// `cbo-online`: the CBO algorithm of Tan & Cao (sec. IV-D, Algorithm 1), which picks the
/// confidence threshold theta and the offloading resolution r^o from the frames processed locally
/// so far, using only their arrivals, confidences, local accuracies and sizes.
///
/// Our reading of Algorithm 1, precisely:
/// 1. The k frames are sorted by descending confidence (ties: input order); they are considered,
///    and offloaded ones uploaded, in that order under the timing rule of cbo_problem.hpp. The
///    frames need not be sorted by arrival.
/// 2. Lines 1-12: l_0 = {(uplink_free_at, 0)} (the paper starts at t = 0). Frame j (in sorted
///    order) copies every pair of l_{j-1} (kept local) and, for EVERY resolution r, adds
///    (max(t, t_j^arr) + S(j, r)/B, A + A^o_r - A^npu_{p_j}) when that upload is on time; then the
///    dominated pairs are removed. So the DP may give different offloaded frames different
///    resolutions, and may skip a frame and offload a less confident one.
///    (Ours: before pruning, t is raised to the earliest arrival among the frames still to come
///    that can still be offloaded, +inf after the last; no upload time changes, and pairs that
///    differ only in idle uplink time merge.)
/// 3. Line 13: the pair of l_k with the largest A; `improvement` is that A, the largest total
///    accuracy gain sum(A^o_r - A^npu) reachable in that order (0 when nothing helps).
/// 4. Lines 14-19 walk the best path back from l_k to l_0 and, at every offloaded frame, set
///    theta <- p_j and r^o <- r. The last assignment wins, so `threshold` is the confidence of the
///    most confident offloaded frame and `resolution` is the resolution the DP gave THAT frame
///    (the frame the paper's runtime offloads next; it re-runs the algorithm after each offload).
///    All offloaded frames have confidence <= threshold, but a frame with confidence <= threshold
///    may be kept (step 2). With nothing offloaded, threshold = -1 and resolution = -1 (no
///    confidence in [0, 1] is <= -1; -1 also means "local" in cbo-optimal's decisions).
/// The paper's backtracking matches pairs by t + S(I_j, r)/B = t' (dropping the max with the
/// arrival, and naming frame j where the step from l_j to l_{j+1} is frame j + 1); we follow
/// stored parent links instead, which walks the same path without comparing floats for equality.
///
/// Bounded, `FrameWindow::kDeadline`, the default:
/// - A frame that cannot be on time at any resolution even with the uplink free from
///   `uplink_free_at` (its deadline has passed, or is too close) can only be kept, so it is left out
///   before sorting and the DP never steps through it: with the clamp of label_dp.hpp an expired
///   frame would pass every Pareto front through unchanged, label for label. A caller that passes
///   the frames processed so far then pays for the frames inside the deadline window plus one O(m)
///   check per expired frame; `OnlineWindow` (cbo_online_window.hpp) forgets them for good, so a call
///   costs the same however long the stream has run.
/// - On fronts of 64 labels or more, a label whose value plus an upper bound on what the remaining
///   frames can add (an LP relaxation, gain_bound.hpp) stays below the value of a schedule known to
///   be feasible is dropped: it cannot lead to the optimum (a backlog of 100 frames that all fit
///   keeps about a tenth of the labels).
/// The decisions are exactly those of Algorithm 1 over every frame without the bound
/// (`FrameWindow::kAll`, kept as the reference; the proofs are in label_dp.hpp / label_dp.cpp and
/// the checks in tests/schedulers/cbo/cbo_online_bounded_test.cpp).
///
/// Option `"resolution_policy": "uniform"` (not in the paper): one resolution for all offloaded
/// frames, the one with the largest improvement (ties: the lowest index); each resolution gets its
/// own run of the same DP restricted to it. The default `"per_frame"` is Algorithm 1 as above.
#include <cstddef>
#include <vector>

#include "schedulers/cbo/cbo_problem.hpp"

namespace coinfer::cbo {

enum class ResolutionPolicy {
  kPerFrame,  ///< Algorithm 1: every offloaded frame at the resolution the DP picks for it
  kUniform,   ///< one resolution for every offloaded frame, the best one
};

/// How much of the problem the DP looks at (the decisions are the same either way).
enum class FrameWindow {
  kDeadline,  ///< frames that can still be offloaded on time, labels the bound allows (default)
  kAll,       ///< every frame and label, as Algorithm 1 is written (reference: tests, cbo_bench)
};

struct OnlineSolution {
  double threshold = -1;                 ///< theta: confidence of the most confident offloaded frame
  int resolution = kLocal;               ///< r^o: that frame's resolution
  double improvement = 0;                ///< total accuracy gain of the best schedule
  std::vector<std::size_t> offload;      ///< input indices of offloaded frames, in upload order
  std::vector<int> offload_resolutions;  ///< resolution of each entry of `offload`
  std::size_t peak_front = 0;            ///< largest Pareto front (diagnostics, not serialised)
};

/// Input indices sorted by descending confidence, ties in input order (the processing order).
std::vector<std::size_t> confidence_order(const Problem& problem);

/// Algorithm 1 on `problem`. Never throws on a parsed problem.
///
///     auto s = cbo::solve_online(cbo::parse_problem(json));   // s.threshold, s.resolution
OnlineSolution solve_online(const Problem& problem, ResolutionPolicy policy = ResolutionPolicy::kPerFrame,
                            FrameWindow window = FrameWindow::kDeadline);

/// `{"threshold", "resolution", "improvement", "offload", "resolutions"}`.
Json to_json(const OnlineSolution& solution);

/// The registered solver: parses the problem plus the optional `resolution_policy`
/// ("per_frame" | "uniform"), solves, serialises. Throws `InputError` naming the JSON path.
Json solve_online_json(const Json& problem);

}  // namespace coinfer::cbo
