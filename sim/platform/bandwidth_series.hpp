#pragma once
/// The rate of one link over time: piecewise constant segments generated lazily from the
/// link's BandwidthModel. Random models draw one value per period from std::mt19937_64 seeded
/// with `link_seed(scenario seed, link name)`, so a run is reproducible and two links vary
/// independently. The replay feeds the same segments to SimGrid (as a bandwidth profile) and
/// to its own bookkeeping.
///
///     BandwidthSeries s(spec, link_seed(42, "wlan"));
///     double r = s.rate_at(3.5);               // bps in force at t = 3.5 s
///     double t = s.next_change_after(3.5);     // next segment start (inf: never changes)
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sim/platform/platform.hpp"

namespace coinfer {

/// Seed of a link's generator: the scenario seed mixed with the link name (splitmix64 of
/// seed xor FNV-1a(name)).
std::uint64_t link_seed(std::uint64_t seed, const std::string& link_name);

class BandwidthSeries {
 public:
  struct Segment {
    double start_s = 0.0;
    double rate_bps = 0.0;
  };

  /// Keeps a reference to `spec` (a population has two links per phone: a copy per link was
  /// most of a series' size), so `spec` outlives the series; a temporary is refused.
  BandwidthSeries(const LinkSpec& spec, std::uint64_t seed);
  BandwidthSeries(LinkSpec&&, std::uint64_t) = delete;
  BandwidthSeries(const BandwidthSeries& other);
  BandwidthSeries& operator=(const BandwidthSeries& other);
  BandwidthSeries(BandwidthSeries&&) = default;
  BandwidthSeries& operator=(BandwidthSeries&&) = default;

  /// False for a constant rate (one segment forever).
  bool varies() const { return spec_->bandwidth.kind != BandwidthModel::Kind::Constant; }
  /// Segment `k`, or null past the end of a non-repeating trace.
  const Segment* segment(std::size_t k);
  /// Rate in force at time `t_s` >= 0.
  double rate_at(double t_s);
  /// The start of the first segment after the one in force at `t_s` (infinity when none).
  double next_change_after(double t_s);

 private:
  /// What a varying rate keeps: its generator (made at the first draw: 2.5 KB), the segments made
  /// so far, a trace's points.
  struct Varying {
    std::uint64_t seed = 0;
    std::unique_ptr<std::mt19937_64> rng;
    std::vector<Segment> segments;
    std::vector<std::pair<double, double>> trace_points;  ///< trace with the t = 0 point added
    std::size_t cursor = 0;  ///< segment last found by rate_at (queries are mostly monotonic)
  };
  bool generate_next();
  double draw();

  const LinkSpec* spec_ = nullptr;
  /// Null for a constant rate: a population's links mostly are, two per phone, and keep only
  /// `constant_`, their one segment.
  std::unique_ptr<Varying> varying_;
  Segment constant_;
};

}  // namespace coinfer
