#pragma once
/// What happened to one frame (or training iteration) of a workload: 32 bytes, no string, so a run
/// of 1e7 frames holds its records in 305 MiB. A frame's index is its position in
/// SimulationResult::frames.
///
///     const FrameRecord& f = result.frames[3];
///     if (f.completed()) latency_ms = f.latency_s() * 1e3;
///     else if (f.dropped()) reason = drop_reason_name(f.drop_reason);   // "busy"
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace coinfer {

/// Why a frame was dropped (None: it was not).
enum class DropReason : std::uint8_t {
  None,
  Busy,       ///< released while the first stage was busy (policy drop)
  Late,       ///< its deadline passed while it waited for the first stage (policy queue)
  Scheduler,  ///< the scheduler dropped it
  Expired,    ///< its deadline passed while a task of it waited in a device's queue (Device::drop_expired)
};

/// "" (None), "busy", "late", "scheduler", "expired": the words frames.csv and the result JSON use.
constexpr std::string_view drop_reason_name(DropReason reason) {
  switch (reason) {
    case DropReason::Busy:
      return "busy";
    case DropReason::Late:
      return "late";
    case DropReason::Scheduler:
      return "scheduler";
    case DropReason::Expired:
      return "expired";
    case DropReason::None:
      break;
  }
  return "";
}

struct FrameRecord {
  double release_s = 0.0;                                     ///< when the workload released it
  double start_s = std::numeric_limits<double>::quiet_NaN();  ///< when it entered the plan
  double end_s = std::numeric_limits<double>::quiet_NaN();    ///< when its last task finished
  std::uint32_t variant = 0;  ///< which plan variant ran it (schedulers choose)
  DropReason drop_reason = DropReason::None;
  bool deadline_met = false;  ///< completed within release_s + deadline_s

  bool dropped() const { return drop_reason != DropReason::None; }
  bool completed() const { return !dropped() && end_s == end_s; }
  double latency_s() const { return end_s - release_s; }
};

static_assert(sizeof(FrameRecord) == 32, "a frame record stays 32 bytes: runs hold one per frame");

}  // namespace coinfer
