#pragma once
/// What happened to one frame (or training iteration) of a workload.
#include <cstddef>
#include <limits>
#include <string>

namespace coinfer {

struct FrameRecord {
  std::size_t index = 0;
  std::size_t variant = 0;  ///< which plan variant ran it (schedulers choose)
  double release_s = 0.0;   ///< when the workload released it
  double start_s = std::numeric_limits<double>::quiet_NaN();  ///< when it entered the plan
  double end_s = std::numeric_limits<double>::quiet_NaN();    ///< when its last task finished
  bool dropped = false;
  std::string drop_reason;    ///< "busy" (first stage busy), "late" (deadline passed), "scheduler"
  bool deadline_met = false;  ///< completed within release_s + deadline_s

  bool completed() const { return !dropped && end_s == end_s; }
  double latency_s() const { return end_s - release_s; }
};

}  // namespace coinfer
