#pragma once
/// Internal to the CBO runtime schedulers (cbo_runtime*.cpp): what they know and track.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "schedulers/cbo/cbo_optimal.hpp"
#include "schedulers/cbo/cbo_runtime.hpp"

namespace coinfer::cbo {

/// Decision code besides kLocal and resolution indices: the local model runs after the decision
/// (variant 2R+1: compress on the CPU, optimal on the NPU).
inline constexpr int kLocalAfter = -2;

struct RuntimeScheduler::State {
  // from the trace (constructor)
  FrameTrace trace;
  std::size_t n_train = 0;
  std::size_t resolutions = 0;
  std::vector<double> local_accuracy;   ///< per streamed frame: the A^npu the DP plans with
  std::vector<double> order_key;        ///< per streamed frame: the confidence Algorithm 1 sorts by
  std::vector<double> server_accuracy;  ///< A^o_r measured on the calibration frames
  Json calibration_fit;
  /// ECE and MCE of the streamed frames' raw confidences, then of the calibration's (Table I).
  struct {
    double raw_ece = 0, raw_mce = 0, ece = 0, mce = 0;
  } calibration_error;
  bool npu_first = false;        ///< stage 1 is the NPU pass (the frame has a local answer from it)
  bool calibrates = false;       ///< stage 1 ends with the confidence calibration
  int threshold_resolution = 0;  ///< cbo-threshold: the resolution it offloads at
  // from the platform (plan_variants)
  bool planned = false;
  double stage1_s = 0, return_s = 0, cpu_s = 0;
  std::string uplink_link;
  double initial_bps = 0;  ///< the uplink estimate before the first measured upload
  long uplink_index = -1;  ///< in SchedulerView::link_names, found on first use
  // at run time
  std::vector<int> decision;      ///< per streamed frame: kLocal, kCpuLocal or a resolution
  std::vector<std::size_t> pool;  ///< held frames, processed locally, not yet decided (arrival order)
  std::deque<std::size_t> queue;  ///< optimal: frames to upload, in arrival order
  bool dirty = false, uplink_busy = false, cpu_busy = false, solved = false;
  std::size_t runs = 0, offloaded = 0, misses = 0, scored = 0;
  double offloaded_bytes = 0, score_sum = 0, optimal_model_accuracy = 0;

  const TraceFrame& frame(std::size_t k) const { return trace.frames[n_train + k]; }
  std::size_t streamed() const { return trace.frames.size() - n_train; }
  /// Frame k's size at resolution r, scaled, in whole bytes (what goes on the wire), at least 1.
  double size_bytes(std::size_t k, std::size_t r, double scale) const {
    return std::max(1.0, std::round(frame(k).size_bytes[r] * scale));
  }
};

/// True for the modes that classify every frame on the NPU first (they have a local answer).
inline bool runs_npu(Mode mode) {
  return mode != Mode::Server && mode != Mode::Compress && mode != Mode::Optimal;
}

}  // namespace coinfer::cbo
