#include "sim/platform/trace_window.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

// Index of the point in force at t (the last one with time <= t); points[0] is at 0.
std::size_t in_force(const std::vector<std::pair<double, double>>& points, double t) {
  const auto it = std::upper_bound(points.begin(), points.end(), t,
                                   [](double v, const std::pair<double, double>& p) { return v < p.first; });
  return it == points.begin() ? 0 : static_cast<std::size_t>(it - points.begin()) - 1;
}

}  // namespace

TraceSchedule apply_trace_window(const TraceSchedule& s, const TraceWindow& w) {
  if (w.loop && !(s.period_s > 0.0)) throw InputError("", "loop", "this trace has no period to repeat with");
  TraceSchedule out;
  const auto& p = s.points;
  const double start = w.loop ? std::fmod(w.start_s, s.period_s) : w.start_s;
  const std::size_t k = in_force(p, start);
  if (start == 0.0) {
    out.points = p;
  } else {
    out.points.emplace_back(0.0, p[k].second);
    for (std::size_t i = k + 1; i < p.size(); ++i) out.points.emplace_back(p[i].first - start, p[i].second);
    // Looping: the part before start follows the rest, one period later.
    for (std::size_t i = 0; w.loop && i <= k; ++i) {
      const double t = p[i].first + s.period_s - start;
      if (t < s.period_s && t > out.points.back().first) out.points.emplace_back(t, p[i].second);
    }
  }
  if (w.scale != 1.0)
    for (auto& [t, r] : out.points) r = std::max(r * w.scale, kMinRate_bps);
  out.period_s = w.loop ? s.period_s : 0.0;
  return out;
}

TraceStats trace_stats(const TraceSchedule& s) {
  TraceStats st;
  const auto& p = s.points;
  st.points = p.size();
  st.duration_s = s.period_s > 0.0 ? s.period_s : p.back().first;
  std::vector<std::pair<double, double>> by_rate;  // (rate, weight)
  double total = 0.0, area = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double end = i + 1 < p.size() ? p[i + 1].first : st.duration_s;
    const double weight = p.size() == 1 ? 1.0 : std::max(0.0, end - p[i].first);
    by_rate.emplace_back(p[i].second, weight);
    total += weight;
    area += weight * p[i].second;
  }
  std::sort(by_rate.begin(), by_rate.end());
  st.min_bps = by_rate.front().first;
  st.max_bps = by_rate.back().first;
  st.mean_bps = total > 0.0 ? area / total : p.front().second;
  const auto quantile = [&](double q) {
    double acc = 0.0;
    for (const auto& [rate, weight] : by_rate) {
      acc += weight;
      if (acc >= q * total) return rate;
    }
    return by_rate.back().first;
  };
  st.p5_bps = quantile(0.05);
  st.p50_bps = quantile(0.5);
  st.p95_bps = quantile(0.95);
  return st;
}

}  // namespace coinfer
