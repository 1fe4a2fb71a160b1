#pragma once
// Hand-built frame records for the metrics tests.
#include <cstdint>

#include "sim/workload/frame_record.hpp"

namespace coinfer::test {

/// A frame released and started at `release_s`, ended at `end_s`.
inline FrameRecord completed_frame(double release_s, double end_s, bool deadline_met = true,
                                   std::uint32_t variant = 0) {
  FrameRecord f;
  f.release_s = release_s;
  f.start_s = release_s;
  f.end_s = end_s;
  f.variant = variant;
  f.deadline_met = deadline_met;
  return f;
}

/// A frame released at `release_s` and dropped (busy).
inline FrameRecord dropped_frame(double release_s) {
  FrameRecord f;
  f.release_s = release_s;
  f.drop_reason = DropReason::Busy;
  return f;
}

}  // namespace coinfer::test
