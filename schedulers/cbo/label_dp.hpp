#pragma once
/// The (t, A) label dynamic programme shared by `cbo-optimal` (sec. IV-C of Tan & Cao) and
/// `cbo-online` (Algorithm 1, sec. IV-D). Internal to schedulers/cbo.
///
/// Frames are processed in a fixed order. After j frames, a label (t, A) is one partial schedule:
/// the uplink is free from t, and A is the accumulated value (total accuracy for cbo-optimal, total
/// accuracy gain for cbo-online). Frame j+1 extends every label (t, A) by
///     keep local:       (t, A + value_local)
///     offload at r:     (t', A + value_offload(r)),  t' = max(t, arrival) + S(j+1, r) / B,
///                       only if t' + T^o + L <= arrival + T (the frame is on time).
/// A label (t', A') dominates (t, A) iff t' <= t and A' >= A: every completion of (t, A) is also a
/// completion of (t', A') (an uplink free no later never makes a later upload later) with no less
/// value, so dominated labels are dropped. What remains after each frame is a Pareto front: t
/// non-decreasing and A strictly increasing. The optimum is the largest A of the last front.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "schedulers/cbo/cbo_problem.hpp"

namespace coinfer::cbo::detail {

/// What a label accumulates.
enum class LabelValue {
  kAccuracy,  ///< A^npu for kept frames, A^o_r for offloaded ones (objective (1) of sec. IV-B)
  kGain,      ///< 0 for kept frames, A^o_r - A^npu for offloaded ones (Algorithm 1)
};

struct Label {
  double t_s = 0;                  ///< the uplink is free from t_s
  double value = 0;                ///< accumulated accuracy or gain
  std::int32_t parent = -1;        ///< index of the label it extends in the previous front
  std::int32_t decision = kLocal;  ///< kLocal or the resolution of the frame that made it
};

struct LabelDpOptions {
  LabelValue value = LabelValue::kAccuracy;
  /// Resolutions a frame may be offloaded at (empty: all).
  std::vector<std::size_t> resolutions;
  /// Replace t by max(t, earliest arrival among the frames still to come) before pruning. Exact
  /// in any processing order: a later upload starts at max(t, its arrival), and its arrival is at
  /// least that earliest one, so no start time changes; labels that differ only in how long the
  /// uplink stays idle collapse into one.
  bool clamp_to_remaining_arrivals = true;
};

struct LabelDpResult {
  /// fronts[0] = {(uplink_free_at, 0)}; fronts[j + 1] after order[j].
  std::vector<std::vector<Label>> fronts;
  std::vector<int> decisions;  ///< per input frame, along the best label's path
  double best_value = 0;       ///< value of the best label of the last front
  std::size_t peak_front = 0;  ///< largest front size (for benchmarks)
  std::size_t total_labels = 0;
};

/// How one frame extends a front.
struct FrontStep {
  LabelValue value = LabelValue::kAccuracy;
  const std::vector<std::size_t>* resolutions = nullptr;  ///< offload options (non-null)
  double clamp_s = 0;  ///< raise every new label's time to at least this (-inf: no clamp)
};

/// The next front: all extensions of `front` (a Pareto front: t non-decreasing, value strictly
/// increasing) by `frame`, without dominated labels, as an (m + 1)-way merge. Result: t and value
/// strictly increasing; `parent` indexes `front`.
void next_front(const Problem& problem, const Frame& frame, const std::vector<Label>& front,
                const FrontStep& step, std::vector<Label>& out);

/// Reference for `next_front` (tests): every extension, literally as Algorithm 1 lines 4-11 ...
void extend_all(const Problem& problem, const Frame& frame, const std::vector<Label>& front,
                const FrontStep& step, std::vector<Label>& out);
/// ... then line 12 by sorting: drops dominated labels in place, leaving t non-decreasing and
/// value strictly increasing.
void prune_dominated(std::vector<Label>& labels);

/// Runs the label DP over `order` (input frame indices) and backtracks the best path.
LabelDpResult run_label_dp(const Problem& problem, const std::vector<std::size_t>& order,
                           const LabelDpOptions& options);

}  // namespace coinfer::cbo::detail
