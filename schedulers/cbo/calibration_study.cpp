#include "schedulers/cbo/calibration_study.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace coinfer::cbo {
namespace {

ScoredFrames calibrated(const ScoredFrames& frames, const ConfidenceCalibrator& c) {
  ScoredFrames out = frames;
  for (std::size_t i = 0; i < out.size(); ++i) out.confidence[i] = c.apply(frames, i);
  return out;
}

Json part_json(const std::vector<ReliabilityBin>& bins) {
  Json reliability = Json::array();
  for (const auto& b : bins) {
    const bool empty = b.count == 0;
    reliability.push_back({{"lower", b.lower},
                           {"upper", b.upper},
                           {"count", b.count},
                           {"mean_confidence", empty ? Json() : Json(b.mean_confidence)},
                           {"accuracy", empty ? Json() : Json(b.accuracy)}});
  }
  return {{"ece", expected_calibration_error(bins)},
          {"mce", maximum_calibration_error(bins)},
          {"reliability", reliability}};
}

}  // namespace

std::size_t train_frame_count(std::size_t n, double train_fraction) {
  return static_cast<std::size_t>(std::llround(train_fraction * static_cast<double>(n)));
}

FrameSplit split_frames(const ScoredFrames& frames, double train_fraction, std::uint64_t seed) {
  const std::size_t n = frames.size(), n_train = train_frame_count(n, train_fraction);
  if (n_train == 0 || n_train >= n) throw std::invalid_argument("split_frames: a part would be empty");
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937_64 rng(seed);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[static_cast<std::size_t>(rng() % i)]);
  std::vector<char> is_train(n, 0);
  for (std::size_t k = 0; k < n_train; ++k) is_train[order[k]] = 1;
  std::vector<std::size_t> train, held_out;
  for (std::size_t i = 0; i < n; ++i) (is_train[i] ? train : held_out).push_back(i);
  return {select_rows(frames, train), select_rows(frames, held_out)};
}

std::vector<CalibrationRow> calibration_study(const FrameSplit& split,
                                              const std::vector<NamedCalibrator>& methods) {
  std::vector<CalibrationRow> rows;
  rows.push_back({"uncalibrated", Json(), reliability_bins(split.train), reliability_bins(split.held_out)});
  for (const auto& [name, c] : methods) {
    c->fit(split.train);
    rows.push_back({name, c->parameters(), reliability_bins(calibrated(split.train, *c)),
                    reliability_bins(calibrated(split.held_out, *c))});
  }
  return rows;
}

std::vector<NamedCalibrator> create_calibrators(const std::vector<std::string>& methods,
                                                const CalibratorRegistry& registry) {
  std::vector<NamedCalibrator> out;
  for (const auto& name : methods)
    out.push_back({name, registry.create(name, Json::object(), "", "--method")});
  return out;
}

Json calibration_row_json(const CalibrationRow& row) {
  return {{"method", row.method},
          {"parameters", row.parameters},
          {"train", part_json(row.train_bins)},
          {"held_out", part_json(row.held_out_bins)}};
}

}  // namespace coinfer::cbo
