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
    : spec_(other.spec_),
      seed_(other.seed_),
      rng_(other.rng_ ? std::make_unique<std::mt19937_64>(*other.rng_) : nullptr),
      segments_(other.segments_),
      trace_points_(other.trace_points_),
      cursor_(other.cursor_) {}

BandwidthSeries& BandwidthSeries::operator=(const BandwidthSeries& other) {
  if (this != &other) *this = BandwidthSeries(other);
  return *this;
}

BandwidthSeries::BandwidthSeries(const LinkSpec& spec, std::uint64_t seed) : spec_(&spec), seed_(seed) {
  if (spec_->bandwidth.kind == BandwidthModel::Kind::Trace) {
    // Before the first point the nominal rate holds.
    trace_points_ = spec_->bandwidth.trace;
    if (trace_points_.empty() || trace_points_.front().first > 0.0)
      trace_points_.insert(trace_points_.begin(), {0.0, spec_->rate_bps});
  }
}

double BandwidthSeries::draw() {
  const auto& m = spec_->bandwidth;
  if (!rng_) rng_ = std::make_unique<std::mt19937_64>(seed_);
  switch (m.kind) {
    case BandwidthModel::Kind::Normal: {
      // Normal truncated at the floor: draws below it are raised to it.
      std::normal_distribution<double> dist(m.mean_bps, m.stddev_bps);
      return std::max(m.floor_bps, dist(*rng_));
    }
    case BandwidthModel::Kind::Uniform: {
      std::uniform_real_distribution<double> dist(m.low_bps, m.high_bps);
      return dist(*rng_);
    }
    case BandwidthModel::Kind::Empirical: {
      std::uniform_int_distribution<std::size_t> dist(0, m.values_bps.size() - 1);
      return m.values_bps[dist(*rng_)];
    }
    default:
      return spec_->rate_bps;
  }
}

bool BandwidthSeries::generate_next() {
  const auto& m = spec_->bandwidth;
  const auto k = segments_.size();
  switch (m.kind) {
    case BandwidthModel::Kind::Constant:
      if (k > 0) return false;
      segments_.push_back({0.0, spec_->rate_bps});
      return true;
    case BandwidthModel::Kind::Trace: {
      // A repeating trace restarts every period.
      const auto& points = trace_points_;
      const auto n = points.size();
      if (m.period_s <= 0.0 && k >= n) return false;
      const double offset = m.period_s > 0.0 ? static_cast<double>(k / n) * m.period_s : 0.0;
      segments_.push_back({offset + points[k % n].first, points[k % n].second});
      return true;
    }
    default:
      segments_.push_back({static_cast<double>(k) * m.period_s, draw()});
      return true;
  }
}

const BandwidthSeries::Segment* BandwidthSeries::segment(std::size_t k) {
  while (segments_.size() <= k)
    if (!generate_next()) return nullptr;
  return &segments_[k];
}

double BandwidthSeries::rate_at(double t_s) {
  if (cursor_ >= segments_.size() || segments_[cursor_].start_s > t_s) cursor_ = 0;
  segment(0);
  // Advance while the next segment has started by t_s.
  for (;;) {
    const Segment* next = segment(cursor_ + 1);
    if (next == nullptr || next->start_s > t_s) break;
    ++cursor_;
  }
  return segments_[cursor_].rate_bps;
}

double BandwidthSeries::next_change_after(double t_s) {
  rate_at(t_s);
  const Segment* next = segment(cursor_ + 1);
  return next == nullptr ? kInf : next->start_s;
}

}  // namespace coinfer
