#pragma once
/// An upper bound on the accuracy gain still reachable from a cbo-online label, used to drop labels
/// that cannot lead to the optimum (internal to schedulers/cbo; label_dp.hpp, `prune_by_bound`).
///
/// After position j of the processing order, a label (t, A) can still offload some of the frames
/// order[j + 1 ..]. If it offloads the set S, uploaded one after the other from t, the last one ends
/// no earlier than t + sum_S w_k (w = S(k, r) / B) and no later than its own latest end
/// d_k = arrival_k + T - T^o - L, so sum_S w_k <= D - t with D = max d_k over those frames. Dropping
/// everything else (the processing order, arrivals, each frame's own deadline) leaves a
/// multiple-choice knapsack: each frame adds at most one (w_kr, g_kr = A^o_r - A^npu_k) with
/// capacity D - t. Its LP relaxation is solved greedily: per frame the upper concave hull of
/// {(0, 0)} and its (w, g > 0) points, then all frames' hull segments by decreasing slope, the last
/// one taken in part. The value U(t) is non-increasing in t, so a label dominated by another has a
/// bound no larger than that other's (label_dp.cpp relies on this).
///
///     GainBound bound(problem, order, live, resolutions);
///     bound.advance_past(j);              // the frames after position j remain
///     if (A + bound.at(t) < best - eps) { /* (t, A) cannot reach best */ }
#include <cstddef>
#include <vector>

#include "schedulers/cbo/cbo_problem.hpp"

namespace coinfer::cbo::detail {

class GainBound {
 public:
  /// `live[j]`: order[j] can still be offloaded (dead frames add nothing); `resolutions` the
  /// allowed ones.
  GainBound(const Problem& problem, const std::vector<std::size_t>& order, const std::vector<char>& live,
            const std::vector<std::size_t>& resolutions);

  /// From now on, the bound covers the frames at positions j + 1 .. of the order (call with
  /// non-decreasing j).
  void advance_past(std::size_t j);

  /// U(t): the bound for a label whose uplink is free from `t_s`.
  double at(double t_s) const;
  /// The slope (gain per second) of the segment the LP takes in part at `t_s`: 0 when every
  /// segment fits (or none remains).
  double threshold_slope(double t_s) const;
  /// U(-inf): the bound with unlimited uplink time.
  double largest() const { return prefix_gain_.back(); }

 private:
  struct Segment {
    double slope = 0;          ///< gain per second (+inf for a free upload)
    double w_s = 0;            ///< upload seconds
    double gain = 0;           ///< accuracy gain
    std::size_t position = 0;  ///< position in the order of the frame it belongs to
  };
  void rebuild_prefix();

  std::vector<Segment> segments_;         ///< the remaining frames' hull segments, by decreasing slope
  std::vector<double> prefix_w_s_;        ///< prefix_w_s_[k] = sum of w over segments_[0, k)
  std::vector<double> prefix_gain_;       ///< the same for the gains
  std::vector<double> latest_end_after_;  ///< D after position j: max d_k over live frames after j
  double latest_end_s_ = 0;               ///< D for the current position
  std::size_t past_ = 0;                  ///< positions <= past_ - 1 have been removed
};

}  // namespace coinfer::cbo::detail
