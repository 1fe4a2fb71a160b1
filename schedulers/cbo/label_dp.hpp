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
  /// Replace t by max(t, earliest arrival among the LIVE frames still to come; +inf after the last
  /// live frame, when t no longer matters) before pruning.
  /// Exact in any processing order: a later upload starts at max(t, its arrival), and its arrival
  /// is at least that earliest one, so no start time changes; labels that differ only in how long
  /// the uplink stays idle collapse into one. A frame is live when some allowed resolution is on
  /// time from t = uplink_free_at, the earliest t of any label (ends only grow with t); a dead
  /// frame is never uploaded, so its arrival never enters a max().
  bool clamp_to_remaining_arrivals = true;
  /// Skip the dead frames (kGain only). A dead frame offers no on-time upload, so it maps each
  /// label (t, A) to (max(t, clamp), A + 0); with the clamp above, t already is at least the clamp
  /// (the previous clamp covered the same live frames), so the front passes through unchanged, label
  /// for label. Skipping them therefore leaves every front after a live frame, and the decisions,
  /// exactly as they are without skipping; the work then depends only on the live frames, not on
  /// how many expired frames the order holds (the bounded cbo-online).
  bool skip_dead_frames = false;
  /// Drop the labels that cannot reach the best value (kGain only): (t, A) after position j goes
  /// when A + U_j(t) < L - eps, U_j the bound of gain_bound.hpp over the frames after j and L the
  /// value of a schedule known to be feasible (the largest value seen in a front, since keeping
  /// every later frame local adds 0, or a greedy completion of the most promising label). The
  /// decisions are unchanged (the argument is at prune_hopeless in label_dp.cpp).
  bool prune_by_bound = false;
  /// ... on fronts of at least this many labels (smaller ones are cheaper to keep than to bound).
  std::size_t prune_from_labels = 64;
};

/// True iff `frame` can be uploaded on time at one of `resolutions` when the uplink is free from
/// `uplink_free_s`: the frame is live for a DP whose labels all have t >= uplink_free_s.
bool can_offload(const Problem& problem, const Frame& frame, const std::vector<std::size_t>& resolutions,
                 double uplink_free_s);

struct LabelDpResult {
  /// fronts[0] = {(uplink_free_at, 0)}; fronts[j + 1] after processed[j].
  std::vector<std::vector<Label>> fronts;
  /// The input frames the DP stepped through, in order: `order`, less the dead frames when they are
  /// skipped.
  std::vector<std::size_t> processed;
  std::vector<int> decisions;  ///< per input frame, along the best label's path
  double best_value = 0;       ///< value of the best label of the last front
  std::size_t peak_front = 0;  ///< largest front size (for benchmarks)
  std::size_t total_labels = 0;
  std::size_t pruned_labels = 0;  ///< labels dropped by prune_by_bound
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
