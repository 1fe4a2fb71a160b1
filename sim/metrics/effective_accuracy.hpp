#pragma once
/// Effective accuracy (Hu & Krishnamachari, [HuK §III]): the share of
/// generated frames that were classified correctly, a dropped frame counting as wrong,
///
///     nu_eff = (sum over completed frames of the accuracy of the variant that ran it) / generated,
///
/// which is T * nu / T_gen for a single variant. A frame's accuracy is the pre-trained accuracy nu
/// of its plan variant (`VariantFacts::accuracy` of `Plan::facts`, an input given with its source), 0 when it
/// was dropped or missed its deadline (a late answer is as useless as none in real time).
/// Windows group frames by release time, so nu_eff can be followed over a run whose bandwidth
/// changes.
///
///     auto nu = variant_accuracies(variants);           // nullopt: some variant has no accuracy
///     EffectiveAccuracy e = effective_accuracy(result.frames, *nu, 10.0);   // e.effective_accuracy
#include <cstddef>
#include <optional>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/plan/plan.hpp"
#include "sim/replay/simulation_result.hpp"

namespace coinfer {

struct AccuracyWindow {
  double start_s = 0.0;  ///< frames released in [start_s, end_s)
  double end_s = 0.0;
  std::size_t generated = 0;
  std::size_t completed = 0;        ///< completed within their deadline
  double effective_accuracy = 0.0;  ///< 0 for a window without frames
};

struct EffectiveAccuracy {
  std::size_t generated = 0;
  std::size_t completed = 0;        ///< completed within their deadline
  double effective_accuracy = 0.0;  ///< nu_eff over the run
  double mean_accuracy = 0.0;       ///< mean nu over the completed frames (0 when none)
  std::vector<AccuracyWindow> windows;
};

/// The facts' accuracy of every variant, or nullopt when some variant has none.
std::optional<std::vector<double>> variant_accuracies(const std::vector<Plan>& variants);

/// A frame's outcome accuracy: `accuracy[frame.variant]` when it completed within its deadline,
/// else 0. Throws `Error` when its variant has no entry.
double frame_accuracy(const FrameRecord& frame, const std::vector<double>& accuracy);

/// nu_eff over the frames and over windows of `window_s` seconds of release time, the first
/// starting at the first release (`window_s` <= 0: no windows). Throws `Error` as frame_accuracy.
EffectiveAccuracy effective_accuracy(const std::vector<FrameRecord>& frames,
                                     const std::vector<double>& accuracy, double window_s);

/// For results.json: {"effective_accuracy", "mean_accuracy", "accurate_frames",
/// "effective_accuracy_windows": [{"start_s", "end_s", "generated", "completed",
/// "effective_accuracy"}]} with ten windows over the release span, or {} when some variant has no
/// accuracy.
Json effective_accuracy_metrics(const std::vector<Plan>& variants, const SimulationResult& result);

}  // namespace coinfer
