#include "sim/metrics/effective_accuracy.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

/// Windows per run in results.json: enough to see nu_eff follow a bandwidth change, few enough to
/// keep the file small.
constexpr std::size_t kResultWindows = 10;

/// Generated, completed and summed accuracy of a set of frames.
struct Tally {
  std::size_t generated = 0, completed = 0;
  double accuracy_sum = 0.0;
  void add(const FrameRecord& f, const std::vector<double>& accuracy) {
    ++generated;
    const double nu = frame_accuracy(f, accuracy);
    if (f.completed() && f.deadline_met) {
      ++completed;
      accuracy_sum += nu;
    }
  }
  double effective() const { return generated == 0 ? 0.0 : accuracy_sum / static_cast<double>(generated); }
};

}  // namespace

std::optional<std::vector<double>> variant_accuracies(const std::vector<Plan>& variants) {
  std::vector<double> out;
  for (const auto& plan : variants) {
    const auto nu = plan.facts ? plan.facts->accuracy() : std::nullopt;
    if (!nu) return std::nullopt;
    out.push_back(*nu);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

double frame_accuracy(const FrameRecord& frame, const std::vector<double>& accuracy) {
  if (frame.variant >= accuracy.size())
    throw Error(fmt::format("frame ran plan variant {}, which has no accuracy ({} given)", frame.variant,
                            accuracy.size()));
  return frame.completed() && frame.deadline_met ? accuracy[frame.variant] : 0.0;
}

EffectiveAccuracy effective_accuracy(const std::vector<FrameRecord>& frames,
                                     const std::vector<double>& accuracy, double window_s) {
  EffectiveAccuracy out;
  Tally run;
  std::vector<Tally> windows;
  const double first_s = frames.empty() ? 0.0 : frames.front().release_s;
  for (const auto& f : frames) {
    run.add(f, accuracy);
    if (window_s <= 0.0) continue;
    const auto w = static_cast<std::size_t>(std::floor((f.release_s - first_s) / window_s));
    if (w >= windows.size()) windows.resize(w + 1);
    windows[w].add(f, accuracy);
  }
  out.generated = run.generated;
  out.completed = run.completed;
  out.effective_accuracy = run.effective();
  out.mean_accuracy = run.completed == 0 ? 0.0 : run.accuracy_sum / static_cast<double>(run.completed);
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const double start_s = first_s + static_cast<double>(w) * window_s;
    out.windows.push_back(
        {start_s, start_s + window_s, windows[w].generated, windows[w].completed, windows[w].effective()});
  }
  return out;
}

Json effective_accuracy_metrics(const std::vector<Plan>& variants, const SimulationResult& result) {
  const auto accuracy = variant_accuracies(variants);
  if (!accuracy || result.frames.empty()) return Json::object();
  const double span_s = result.frames.back().release_s - result.frames.front().release_s;
  // Ten windows over the release span (one window when every frame was released at once); the
  // last frame falls in the last window because the width is rounded up by one part in 1e9.
  const double window_s = span_s > 0.0 ? span_s * (1.0 + 1e-9) / kResultWindows : 1.0;
  const EffectiveAccuracy e = effective_accuracy(result.frames, *accuracy, window_s);
  Json windows = Json::array();
  for (const auto& w : e.windows)
    windows.push_back({{"start_s", w.start_s},
                       {"end_s", w.end_s},
                       {"generated", w.generated},
                       {"completed", w.completed},
                       {"effective_accuracy", w.effective_accuracy}});
  return {{"effective_accuracy", e.effective_accuracy},
          {"mean_accuracy", e.mean_accuracy},
          {"accurate_frames", e.completed},
          {"effective_accuracy_windows", std::move(windows)}};
}

}  // namespace coinfer
