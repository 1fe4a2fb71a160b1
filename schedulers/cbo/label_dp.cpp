#include "schedulers/cbo/label_dp.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <optional>

#include "schedulers/cbo/gain_bound.hpp"

namespace coinfer::cbo::detail {
namespace {

double local_value(const Frame& frame, LabelValue value) {
  return value == LabelValue::kAccuracy ? frame.local_accuracy : 0.0;
}

double offload_value(const Problem& problem, const Frame& frame, std::size_t r, LabelValue value) {
  // Algorithm 1 line 10: A' = A^o_r - A^npu_{p_j}; objective (1): A^o_r.
  return value == LabelValue::kAccuracy ? offload_accuracy(problem, frame, r)
                                        : offload_accuracy(problem, frame, r) - frame.local_accuracy;
}

std::vector<std::size_t> all_resolutions(const Problem& problem) {
  std::vector<std::size_t> out(problem.resolutions());
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = r;
  return out;
}

/// Number of leading labels of `front` from which an upload of `frame` at `r` is on time (upload
/// ends are non-decreasing along the front, so the on-time labels form a prefix).
std::size_t on_time_prefix(const Problem& problem, const Frame& frame, std::size_t r,
                           const std::vector<Label>& front) {
  std::size_t k = 0;
  while (k < front.size() && on_time(problem, frame, upload_end_s(problem, frame, r, front[k].t_s))) ++k;
  return k;
}

/// Value of one feasible completion of (t, A) after position j: the remaining live frames in order,
/// each offloaded at the resolution that maximises g - slope * w among those on time (the LP's
/// choice at the bound's threshold slope), or kept when none is positive. Summed in the DP's order,
/// so the DP's best value is at least this, bit for bit.
double greedy_completion(const Problem& problem, const std::vector<std::size_t>& order,
                         const std::vector<char>& live, const std::vector<std::size_t>& resolutions,
                         std::size_t j, const Label& label, double slope) {
  double t_s = label.t_s, value = label.value;
  for (std::size_t k = j + 1; k < order.size(); ++k) {
    if (!live[k]) continue;
    const Frame& f = problem.frames[order[k]];
    double best_score = 0, best_end_s = 0, best_gain = 0;
    for (const std::size_t r : resolutions) {
      const double gain = offload_accuracy(problem, f, r) - f.local_accuracy;
      const double end_s = upload_end_s(problem, f, r, t_s);
      const double score = gain - slope * (end_s - t_s);
      if (gain > 0 && score > best_score && on_time(problem, f, end_s)) {
        best_score = score;
        best_end_s = end_s;
        best_gain = gain;
      }
    }
    if (best_score > 0) {
      value += best_gain;
      t_s = best_end_s;
    }
  }
  return value;
}

/// Drops the labels of `front` (after position j) that cannot reach `best`, the value of a
/// schedule known to be feasible (raised here by a greedy completion of the most promising label).
///
/// Why the decisions do not change. Let B be the best value of the whole run (B >= best). A
/// dropped label has A + U < best - eps <= B - eps, and eps covers the rounding of the sums, so none
/// of its completions reaches B: the best path is never dropped. Nor does any label that stays
/// change its fate: a label dominated by a dropped one (t' >= t, A' <= A) has A' + U(t') <=
/// A + U(t) (U is non-increasing in t) and is dropped too, and what a dropped label's descendants
/// would have dominated can no more reach B than they could, so no surviving label ever ties with
/// or dominates a label on the best path. The best path is walked exactly as without the bound.
void prune_hopeless(const Problem& problem, const std::vector<std::size_t>& order,
                    const std::vector<char>& live, const std::vector<std::size_t>& resolutions,
                    GainBound& bound, std::size_t j, std::vector<Label>& front, double& best) {
  bound.advance_past(j);
  best = std::max(best, front.back().value);  // values increase along a front; keep the rest local
  std::vector<double> reach(front.size());
  std::size_t promising = 0;
  for (std::size_t k = 0; k < front.size(); ++k) {
    reach[k] = front[k].value + bound.at(front[k].t_s);
    if (reach[k] > reach[promising]) promising = k;
  }
  best = std::max(best, greedy_completion(problem, order, live, resolutions, j, front[promising],
                                          bound.threshold_slope(front[promising].t_s)));
  const double eps = 1e-9 * (1.0 + std::fabs(best) + bound.largest());
  std::size_t kept = 0;
  for (std::size_t k = 0; k < front.size(); ++k)
    if (!(reach[k] < best - eps)) front[kept++] = front[k];
  front.resize(kept);
}

}  // namespace

bool can_offload(const Problem& problem, const Frame& frame, const std::vector<std::size_t>& resolutions,
                 double uplink_free_s) {
  for (const std::size_t r : resolutions)
    if (on_time(problem, frame, upload_end_s(problem, frame, r, uplink_free_s))) return true;
  return false;
}

void extend_all(const Problem& problem, const Frame& frame, const std::vector<Label>& front,
                const FrontStep& step, std::vector<Label>& out) {
  out.clear();
  const double keep = local_value(frame, step.value);
  for (std::size_t k = 0; k < front.size(); ++k) {
    const Label& label = front[k];
    const auto parent = static_cast<std::int32_t>(k);
    out.push_back({std::max(label.t_s, step.clamp_s), label.value + keep, parent, kLocal});
    for (const std::size_t r : *step.resolutions) {
      const double end_s = upload_end_s(problem, frame, r, label.t_s);
      if (!on_time(problem, frame, end_s)) continue;
      out.push_back({std::max(end_s, step.clamp_s),
                     label.value + offload_value(problem, frame, r, step.value), parent,
                     static_cast<std::int32_t>(r)});
    }
  }
}

void prune_dominated(std::vector<Label>& labels) {
  // Sorted by t ascending (ties: value descending), a label survives iff its value beats every
  // label before it, i.e. no label is both no later and no less valuable. Of identical labels the
  // first survives.
  std::stable_sort(labels.begin(), labels.end(), [](const Label& a, const Label& b) {
    return a.t_s < b.t_s || (a.t_s == b.t_s && a.value > b.value);
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (kept > 0 && labels[i].value <= labels[kept - 1].value) continue;
    labels[kept++] = labels[i];
  }
  labels.resize(kept);
}

void next_front(const Problem& problem, const Frame& frame, const std::vector<Label>& front,
                const FrontStep& step, std::vector<Label>& out) {
  // Option q = 0 keeps the frame local, q >= 1 offloads it at resolutions[q - 1]. Applied to the
  // front (t ascending, value strictly increasing), each option yields a list that is again sorted
  // by t (max(t, arrival) + S/B and max(t, clamp) are monotone in t) with increasing values, and an
  // offload list ends at the first late label (later labels end no earlier). So the candidates
  // are an (m + 1)-way merge of sorted lists, pruned on the fly: a candidate is kept iff it beats
  // the value of the last kept label, replacing that label when both have the same time.
  const auto& resolutions = *step.resolutions;
  const std::size_t options = resolutions.size() + 1;
  std::vector<double> add(options);
  std::vector<std::size_t> head(options, 0), limit(options, front.size());
  add[0] = local_value(frame, step.value);
  for (std::size_t q = 1; q < options; ++q) {
    const std::size_t r = resolutions[q - 1];
    add[q] = offload_value(problem, frame, r, step.value);
    limit[q] = on_time_prefix(problem, frame, r, front);
  }
  auto candidate_t = [&](std::size_t q) {
    const double t_s =
        q == 0 ? front[head[q]].t_s : upload_end_s(problem, frame, resolutions[q - 1], front[head[q]].t_s);
    return std::max(t_s, step.clamp_s);
  };
  std::vector<double> t(options);
  for (std::size_t q = 0; q < options; ++q)
    if (head[q] < limit[q]) t[q] = candidate_t(q);

  out.clear();
  while (true) {
    // The head with the smallest time; on equal times the larger value.
    std::size_t best = options;
    double best_value = 0;
    for (std::size_t q = 0; q < options; ++q) {
      if (head[q] >= limit[q]) continue;
      const double v = front[head[q]].value + add[q];
      if (best == options || t[q] < t[best] || (t[q] == t[best] && v > best_value)) {
        best = q;
        best_value = v;
      }
    }
    if (best == options) break;
    const Label label{t[best], best_value, static_cast<std::int32_t>(head[best]),
                      best == 0 ? kLocal : static_cast<std::int32_t>(resolutions[best - 1])};
    if (out.empty() || label.value > out.back().value) {
      if (!out.empty() && out.back().t_s == label.t_s) out.pop_back();
      out.push_back(label);
    }
    if (++head[best] < limit[best]) t[best] = candidate_t(best);
  }
}

LabelDpResult run_label_dp(const Problem& problem, const std::vector<std::size_t>& order,
                           const LabelDpOptions& options) {
  assert(!options.skip_dead_frames || options.value == LabelValue::kGain);
  const auto resolutions = options.resolutions.empty() ? all_resolutions(problem) : options.resolutions;
  std::vector<char> live(order.size());
  for (std::size_t j = 0; j < order.size(); ++j)
    live[j] = can_offload(problem, problem.frames[order[j]], resolutions, problem.uplink_free_at_s);
  // earliest_after[j] = min arrival over the live frames of order[j + 1 ..], +inf when none: with
  // nothing left to upload, t no longer matters and every label's t becomes +inf (the front keeps
  // its most valuable label). +inf rather than "no clamp" keeps the clamp of the first live frame
  // no smaller than that of the expired frames before it, which skip_dead_frames relies on.
  std::vector<double> earliest_after(order.size());
  double earliest_s = std::numeric_limits<double>::infinity();
  for (std::size_t j = order.size(); j-- > 0;) {
    earliest_after[j] = earliest_s;
    if (live[j]) earliest_s = std::min(earliest_s, problem.frames[order[j]].arrival_s);
  }

  LabelDpResult out;
  out.fronts.push_back({Label{problem.uplink_free_at_s, 0.0, -1, kLocal}});  // l_0 = {(0, 0)}
  FrontStep step;
  step.value = options.value;
  step.resolutions = &resolutions;
  assert(!options.prune_by_bound || options.value == LabelValue::kGain);
  std::optional<GainBound> bound;  // built when a front first gets large enough to prune
  double known_best = 0;           // value of a feasible schedule (offloading nothing: 0)
  std::vector<Label> candidates;
  for (std::size_t j = 0; j < order.size(); ++j) {
    if (options.skip_dead_frames && !live[j]) continue;
    step.clamp_s =
        options.clamp_to_remaining_arrivals ? earliest_after[j] : -std::numeric_limits<double>::infinity();
    // Algorithm 1 lines 4-12: extend every pair, then drop the dominated ones.
    next_front(problem, problem.frames[order[j]], out.fronts.back(), step, candidates);
    if (options.prune_by_bound && candidates.size() >= options.prune_from_labels) {
      if (!bound) bound.emplace(problem, order, live, resolutions);
      const auto before = candidates.size();
      prune_hopeless(problem, order, live, resolutions, *bound, j, candidates, known_best);
      out.pruned_labels += before - candidates.size();
    }
    out.peak_front = std::max(out.peak_front, candidates.size());
    out.total_labels += candidates.size();
    out.fronts.push_back(candidates);
    out.processed.push_back(order[j]);
  }

  // The front's values strictly increase, so its last label has the largest value
  // (Algorithm 1 line 13); follow the parents back to read every frame's decision.
  out.decisions.assign(problem.frames.size(), kLocal);
  std::int32_t index = static_cast<std::int32_t>(out.fronts.back().size()) - 1;
  out.best_value = out.fronts.back()[static_cast<std::size_t>(index)].value;
  for (std::size_t j = out.processed.size(); j > 0; --j) {
    const Label& label = out.fronts[j][static_cast<std::size_t>(index)];
    out.decisions[out.processed[j - 1]] = label.decision;
    index = label.parent;
  }
  return out;
}

}  // namespace coinfer::cbo::detail
