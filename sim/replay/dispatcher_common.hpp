#pragma once
// Constants the replay's event loop (dispatcher*) and the parts it drives share.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace coinfer::replay {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
/// The frame of a transfer that belongs to no frame: a scheduler's probe (Scheduler::take_probes).
inline constexpr std::size_t kNoFrame = std::numeric_limits<std::size_t>::max();
/// The job index of a compute task that belongs to a frame (not a background job).
inline constexpr std::size_t kNoJob = std::numeric_limits<std::size_t>::max();
/// The task index of a background job (Scheduler::take_background).
inline constexpr std::size_t kNoTask = std::numeric_limits<std::size_t>::max();
/// Timers within this of the clock are due (SimGrid's default timing precision is 1e-9 s).
inline constexpr double kTimeEps = 1e-9;

/// A transfer's size in whole bytes, as SimGrid sends it.
inline std::uint64_t payload_bytes(double bytes) {
  return static_cast<std::uint64_t>(std::llround(std::max(0.0, bytes)));
}

}  // namespace coinfer::replay
