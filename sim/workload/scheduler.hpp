#pragma once
/// The hook through which runtime schedulers (adaptive compression, CBO online, AdaLearner...)
/// steer a running workload. The replay calls the scheduler at each frame release (choose the
/// plan variant for that frame, or drop it), after each frame ends, and every `period_s()` if
/// positive (choose the variant for the frames that follow). Schedulers see a snapshot, never
/// SimGrid; their choices index the plan variants passed to `simulate`.
///
///     class Fixed : public Scheduler {
///       FrameDecision on_frame(const SchedulerView&) override { return {1, false}; }
///     };
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/workload/frame_record.hpp"

namespace coinfer {

/// The state a scheduler sees.
struct SchedulerView {
  double now_s = 0.0;
  std::size_t frame = 0;  ///< the frame being released (on_frame), or the next one
  std::size_t variant_count = 1;
  std::size_t current_variant = 0;                   ///< the default for new frames (set by on_period)
  std::size_t queued_frames = 0;                     ///< released, waiting for the first stage
  std::size_t frames_in_flight = 0;                  ///< admitted, not yet completed
  const std::vector<FrameRecord>* frames = nullptr;  ///< every frame record so far (by index)
  const std::vector<std::string>* link_names = nullptr;
  std::vector<double> link_rates_bps;  ///< current rate of each link (same order as link_names)
};

struct FrameDecision {
  std::optional<std::size_t> variant;  ///< empty: the current variant
  bool drop = false;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::string name() const = 0;
  /// A frame is released.
  virtual FrameDecision on_frame(const SchedulerView& view) {
    (void)view;
    return {};
  }
  /// A frame completed (or was dropped).
  virtual void on_frame_end(const FrameRecord& record, const SchedulerView& view) {
    (void)record;
    (void)view;
  }
  /// Seconds between on_period calls (0: never).
  virtual double period_s() const { return 0.0; }
  /// Periodic decision: a new current variant, or empty to keep it.
  virtual std::optional<std::size_t> on_period(const SchedulerView& view) {
    (void)view;
    return std::nullopt;
  }
};

/// Runs every frame with variant 0 and never drops.
class NoopScheduler final : public Scheduler {
 public:
  std::string name() const override { return "none"; }
};

}  // namespace coinfer
