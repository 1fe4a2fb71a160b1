#include "schedulers/cbo/gain_bound.hpp"

#include <algorithm>
#include <limits>

namespace coinfer::cbo::detail {
namespace {

/// The segments of the upper concave hull of {(0, 0)} and the points (w, g > 0) of one frame.
void add_hull(std::vector<std::pair<double, double>> points, std::size_t position, std::vector<double>& w_out,
              std::vector<double>& g_out, std::vector<std::size_t>& pos_out) {
  std::sort(points.begin(), points.end());  // by w, then g
  std::vector<std::pair<double, double>> hull{{0.0, 0.0}};
  for (const auto& p : points) {
    if (p.second <= hull.back().second) continue;  // no more gain for at least as much time
    if (p.first == hull.back().first) {
      if (hull.size() == 1) {  // a free upload (size 0): a vertical first segment
        hull.push_back(p);
        continue;
      }
      hull.pop_back();
    }
    // Pop while the last hull point lies on or below the chord from its predecessor to p.
    while (hull.size() >= 2) {
      const auto& a = hull[hull.size() - 2];
      const auto& b = hull.back();
      if ((b.second - a.second) * (p.first - a.first) > (p.second - a.second) * (b.first - a.first)) break;
      hull.pop_back();
    }
    hull.push_back(p);
  }
  for (std::size_t k = 1; k < hull.size(); ++k) {
    w_out.push_back(hull[k].first - hull[k - 1].first);
    g_out.push_back(hull[k].second - hull[k - 1].second);
    pos_out.push_back(position);
  }
}

}  // namespace

GainBound::GainBound(const Problem& problem, const std::vector<std::size_t>& order,
                     const std::vector<char>& live, const std::vector<std::size_t>& resolutions) {
  latest_end_after_.assign(order.size(), -std::numeric_limits<double>::infinity());
  double latest_s = -std::numeric_limits<double>::infinity();
  for (std::size_t j = order.size(); j-- > 0;) {
    latest_end_after_[j] = latest_s;
    const Frame& f = problem.frames[order[j]];
    if (live[j])
      latest_s =
          std::max(latest_s, f.arrival_s + problem.deadline_s - problem.server_time_s - problem.latency_s);
  }
  latest_end_s_ = latest_s;
  std::vector<double> w, g;
  std::vector<std::size_t> pos;
  for (std::size_t j = 0; j < order.size(); ++j) {
    if (!live[j]) continue;
    const Frame& f = problem.frames[order[j]];
    std::vector<std::pair<double, double>> points;
    for (const std::size_t r : resolutions) {
      const double gain = offload_accuracy(problem, f, r) - f.local_accuracy;
      if (gain > 0) points.emplace_back(f.sizes_bits[r] / problem.bandwidth_bps, gain);
    }
    add_hull(std::move(points), j, w, g, pos);
  }
  segments_.reserve(w.size());
  for (std::size_t k = 0; k < w.size(); ++k)
    segments_.push_back(
        {w[k] > 0 ? g[k] / w[k] : std::numeric_limits<double>::infinity(), w[k], g[k], pos[k]});
  std::stable_sort(segments_.begin(), segments_.end(),
                   [](const Segment& a, const Segment& b) { return a.slope > b.slope; });
  rebuild_prefix();
}

void GainBound::rebuild_prefix() {
  prefix_w_s_.assign(segments_.size() + 1, 0.0);
  prefix_gain_.assign(segments_.size() + 1, 0.0);
  for (std::size_t k = 0; k < segments_.size(); ++k) {
    prefix_w_s_[k + 1] = prefix_w_s_[k] + segments_[k].w_s;
    prefix_gain_[k + 1] = prefix_gain_[k] + segments_[k].gain;
  }
}

void GainBound::advance_past(std::size_t j) {
  latest_end_s_ = latest_end_after_[j];
  if (j + 1 <= past_) return;
  past_ = j + 1;
  const auto before = segments_.size();
  std::erase_if(segments_, [&](const Segment& s) { return s.position <= j; });
  if (segments_.size() != before) rebuild_prefix();
}

double GainBound::threshold_slope(double t_s) const {
  const double capacity_s = latest_end_s_ - t_s;
  if (!(capacity_s >= 0)) return std::numeric_limits<double>::infinity();
  const auto k = static_cast<std::size_t>(
      std::upper_bound(prefix_w_s_.begin(), prefix_w_s_.end(), capacity_s) - prefix_w_s_.begin() - 1);
  return k < segments_.size() ? segments_[k].slope : 0.0;
}

double GainBound::at(double t_s) const {
  const double capacity_s = latest_end_s_ - t_s;
  if (!(capacity_s >= 0)) return 0.0;  // no remaining frame can end in time (or none remains)
  // The segments wholly inside the capacity, then a part of the next.
  const auto k = static_cast<std::size_t>(
      std::upper_bound(prefix_w_s_.begin(), prefix_w_s_.end(), capacity_s) - prefix_w_s_.begin() - 1);
  double u = prefix_gain_[k];
  if (k < segments_.size()) u += (capacity_s - prefix_w_s_[k]) * segments_[k].slope;
  return u;
}

}  // namespace coinfer::cbo::detail
