#include "sim/platform/bandwidth_series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/hash.hpp"

namespace coinfer {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

std::uint64_t link_seed(std::uint64_t seed, const std::string& link_name) {
  return splitmix64(seed ^ fnv1a64(link_name));
}

BandwidthSeries::BandwidthSeries(const BandwidthSeries& other)
    : spec_(other.spec_), constant_(other.constant_) {
  if (!other.varying_) return;
  const Varying& v = *other.varying_;
  varying_ =
      std::make_unique<Varying>(Varying{v.seed, v.rng ? std::make_unique<std::mt19937_64>(*v.rng) : nullptr,
                                        v.segments, v.trace_points, v.cursor});
}

BandwidthSeries& BandwidthSeries::operator=(const BandwidthSeries& other) {
  if (this != &other) *this = BandwidthSeries(other);
  return *this;
}

BandwidthSeries::BandwidthSeries(const LinkSpec& spec, std::uint64_t seed)
    : spec_(&spec), constant_{0.0, spec.rate_bps} {
  if (!varies()) return;
  varying_ = std::make_unique<Varying>();
  varying_->seed = seed;
  if (spec_->bandwidth.kind == BandwidthModel::Kind::Trace) {
    // Before the first point the nominal rate holds.
    auto& points = varying_->trace_points;
    points = spec_->bandwidth.trace;
    if (points.empty() || points.front().first > 0.0) points.insert(points.begin(), {0.0, spec_->rate_bps});
  }
}

double BandwidthSeries::draw() {
  const auto& m = spec_->bandwidth;
  auto& rng = varying_->rng;
  if (!rng) rng = std::make_unique<std::mt19937_64>(varying_->seed);
  switch (m.kind) {
    case BandwidthModel::Kind::Normal: {
      // Normal truncated at the floor: draws below it are raised to it.
      std::normal_distribution<double> dist(m.mean_bps, m.stddev_bps);
      return std::max(m.floor_bps, dist(*rng));
    }
    case BandwidthModel::Kind::Uniform: {
      std::uniform_real_distribution<double> dist(m.low_bps, m.high_bps);
      return dist(*rng);
    }
    case BandwidthModel::Kind::Empirical: {
      std::uniform_int_distribution<std::size_t> dist(0, m.values_bps.size() - 1);
      return m.values_bps[dist(*rng)];
    }
    default:
      return spec_->rate_bps;
  }
}

// A varying rate's next segment (false past the end of a non-repeating trace).
bool BandwidthSeries::generate_next() {
  const auto& m = spec_->bandwidth;
  auto& segments = varying_->segments;
  const auto k = segments.size();
  if (m.kind == BandwidthModel::Kind::Trace) {
    // A repeating trace restarts every period.
    const auto& points = varying_->trace_points;
    const auto n = points.size();
    if (m.period_s <= 0.0 && k >= n) return false;
    const double offset = m.period_s > 0.0 ? static_cast<double>(k / n) * m.period_s : 0.0;
    segments.push_back({offset + points[k % n].first, points[k % n].second});
    return true;
  }
  segments.push_back({static_cast<double>(k) * m.period_s, draw()});
  return true;
}

const BandwidthSeries::Segment* BandwidthSeries::segment(std::size_t k) {
  if (!varying_) return k == 0 ? &constant_ : nullptr;
  auto& segments = varying_->segments;
  while (segments.size() <= k)
    if (!generate_next()) return nullptr;
  return &segments[k];
}

double BandwidthSeries::rate_at(double t_s) {
  if (!varying_) return constant_.rate_bps;
  auto& segments = varying_->segments;
  auto& cursor = varying_->cursor;
  if (cursor >= segments.size() || segments[cursor].start_s > t_s) cursor = 0;
  segment(0);
  // Advance while the next segment has started by t_s.
  for (;;) {
    const Segment* next = segment(cursor + 1);
    if (next == nullptr || next->start_s > t_s) break;
    ++cursor;
  }
  return segments[cursor].rate_bps;
}

double BandwidthSeries::next_change_after(double t_s) {
  if (!varying_) return kInf;
  rate_at(t_s);
  const Segment* next = segment(varying_->cursor + 1);
  return next == nullptr ? kInf : next->start_s;
}

}  // namespace coinfer
